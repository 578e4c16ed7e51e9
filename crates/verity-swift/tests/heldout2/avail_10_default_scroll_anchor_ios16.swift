import SwiftUI

struct LogView: View {
    let lines: [String]

    var body: some View {
        ScrollView {
            VStack(alignment: .leading) {
                ForEach(lines, id: \.self) { line in
                    Text(line)
                        .font(.caption.monospaced())
                }
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        }
        .defaultScrollAnchor(.bottom)
    }
}
