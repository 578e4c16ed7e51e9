import SwiftUI

struct ChatLog: View {
    struct Line: Identifiable {
        let id: Int
        let text: String
    }

    @State private var lines: [Line] = (0..<40).map { Line(id: $0, text: "Message \($0)") }
    @State private var draft = ""

    var body: some View {
        VStack(spacing: 0) {
            ScrollViewReader { proxy in
                ScrollView {
                    LazyVStack(alignment: .leading, spacing: 8) {
                        ForEach(lines) { line in
                            Text(line.text)
                                .id(line.id)
                        }
                    }
                    .padding()
                }
                .onChange(of: lines.count) { _, _ in
                    if let last = lines.last {
                        proxy.scrollToItem(last.id)
                    }
                }
            }
            HStack {
                TextField("Message", text: $draft)
                    .textFieldStyle(.roundedBorder)
                Button("Send") {
                    lines.append(Line(id: lines.count, text: draft))
                    draft = ""
                }
                .disabled(draft.isEmpty)
            }
            .padding()
        }
    }
}
