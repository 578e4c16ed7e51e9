import SwiftUI

struct ChatTranscript: View {
    let messages: [String]

    var body: some View {
        ScrollViewReader { reader in
            ScrollView {
                LazyVStack(alignment: .leading, spacing: 8) {
                    ForEach(messages.indices, id: \.self) { i in
                        Text(messages[i]).id(i)
                    }
                }
                .padding()
            }
            .onAppear { reader.scrollToBottom(animated: false) }
        }
    }
}
