import SwiftUI

extension Font {
    static let headlineRounded = Font.system(.headline, design: .rounded)
    static let display = Font.system(size: 44, weight: .black, design: .rounded)
    static func mono(_ size: CGFloat) -> Font {
        .system(size: size, design: .monospaced)
    }
}

struct StatTile: View {
    let title: String
    let value: Int
    let unit: String

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(title)
                .font(.headlineRounded)
            HStack(alignment: .firstTextBaseline, spacing: 4) {
                Text(value, format: .number)
                    .font(.display)
                Text(unit)
                    .font(.mono(14))
                    .foregroundStyle(.secondary)
            }
        }
        .padding()
    }
}
