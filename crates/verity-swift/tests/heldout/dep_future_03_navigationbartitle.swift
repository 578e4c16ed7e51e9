import SwiftUI

struct InboxView: View {
    @State private var unreadOnly = false
    let messages = ["Welcome!", "Your invoice", "Weekly digest"]

    var body: some View {
        NavigationStack {
            List {
                Toggle("Unread only", isOn: $unreadOnly)
                ForEach(messages, id: \.self) { subject in
                    NavigationLink(subject, value: subject)
                }
            }
            .navigationDestination(for: String.self) { subject in
                Text(subject)
                    .font(.title)
            }
            .navigationBarTitle("Inbox")
        }
    }
}
