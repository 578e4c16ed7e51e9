import SwiftUI

struct ExpandableRow: View {
    let title: String
    let detail: String
    @State private var expanded = false

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack {
                Text(title)
                    .font(.headline)
                Spacer()
                Image(systemName: "chevron.right")
                    .rotationEffect(.degrees(expanded ? 90 : 0))
            }
            .contentShape(Rectangle())
            .onTapGesture { expanded.toggle() }
            if expanded {
                Text(detail)
                    .font(.body)
                    .transition(.opacity)
            }
        }
        .animation(.easeInOut(duration: 0.25))
        .padding()
    }
}
