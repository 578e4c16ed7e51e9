import SwiftUI

struct ReleaseNotesView: View {
    let version: String
    let notes: [String]

    private var header: AttributedString {
        var title = AttributedString("What's new in \(version)")
        title.font = .title2.bold()
        title.foregroundColor = .accentColor
        return title
    }

    private func bullet(_ text: String) -> AttributedString {
        var line = AttributedString("• " + text)
        if let range = line.range(of: "new", options: .caseInsensitive) {
            line[range].foregroundColor = .green
        }
        return line
    }

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text(header)
            ForEach(notes, id: \.self) { Text(bullet($0)) }
        }
        .padding()
    }
}
