import SwiftUI

struct Mailbox: Identifiable, Hashable {
    let id = UUID()
    let name: String
}

struct MailRoot: View {
    let mailboxes = [Mailbox(name: "Inbox"), Mailbox(name: "Sent"), Mailbox(name: "Archive")]
    @State private var selection: Mailbox?

    var body: some View {
        NavigationSplitView {
            List(mailboxes, selection: $selection) { box in
                Label(box.name, systemImage: "tray").tag(box)
            }
            .navigationSplitViewColumnWidth(min: 180, ideal: 220)
        } detail: {
            if let selection {
                Text(selection.name).font(.title)
            } else {
                Text("Select a mailbox")
            }
        }
    }
}
