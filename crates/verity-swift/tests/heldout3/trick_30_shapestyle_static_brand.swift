import SwiftUI

extension ShapeStyle where Self == Color {
    static var brand: Color { Color(red: 0.16, green: 0.42, blue: 0.87) }
    static var brandMuted: Color { Color(red: 0.16, green: 0.42, blue: 0.87).opacity(0.2) }
}

enum Filter: String, CaseIterable, Identifiable {
    case all, unread, flagged
    var id: Self { self }
}

struct MailFilterBar: View {
    @State private var filter: Filter = .all

    var body: some View {
        Picker("Filter", selection: $filter) {
            ForEach(Filter.allCases) { option in
                Text(option.rawValue.capitalized).tag(option)
            }
        }
        .pickerStyle(.segmented)
        .padding(8)
        .background(.brandMuted, in: .rect(cornerRadius: 10))
        .foregroundStyle(.brand)
    }
}
