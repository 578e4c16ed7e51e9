import SwiftUI

struct InboxView: View {
    let messages: [String]

    var body: some View {
        NavigationStack {
            Group {
                if messages.isEmpty {
                    ContentUnavailableView(
                        "No Messages",
                        systemImage: "tray",
                        description: Text("New messages will appear here.")
                    )
                } else {
                    List(messages, id: \.self) { Text($0) }
                }
            }
            .navigationTitle("Inbox")
        }
    }
}
