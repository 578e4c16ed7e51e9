import SwiftUI

struct Message: Identifiable {
    let id = UUID()
    let sender: String
    let preview: String
    var isRead: Bool
}

struct InboxView: View {
    @State private var messages: [Message] = []

    var body: some View {
        NavigationStack {
            List($messages) { $message in
                VStack(alignment: .leading) {
                    Text(message.sender).fontWeight(message.isRead ? .regular : .bold)
                    Text(message.preview).lineLimit(2).font(.subheadline)
                }
                .swipeActions {
                    Button(message.isRead ? "Unread" : "Read") { message.isRead.toggle() }
                        .tint(.blue)
                }
            }
            .navigationBarTitle("Inbox", displayMode: .inline)
        }
    }
}
