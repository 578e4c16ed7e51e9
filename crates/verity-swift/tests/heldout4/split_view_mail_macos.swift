import SwiftUI

struct Mailbox: Identifiable, Hashable {
    let id: String
    let name: String
    let unread: Int
}

struct MailSplitView: View {
    let mailboxes: [Mailbox]
    @State private var selection: Mailbox.ID?

    var body: some View {
        NavigationSplitView {
            List(mailboxes, selection: $selection) { box in
                Label("\(box.name) (\(box.unread))", systemImage: "tray")
            }
            .navigationSplitViewColumnWidth(min: 180, ideal: 220, max: 300)
        } detail: {
            if let id = selection, let box = mailboxes.first(where: { $0.id == id }) {
                Text(box.name).font(.largeTitle)
            } else {
                ContentUnavailableView("No Mailbox", systemImage: "tray", description: Text("Select a mailbox."))
            }
        }
        .navigationTitle("Mail")
    }
}
