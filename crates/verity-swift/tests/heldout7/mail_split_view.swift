import SwiftUI

struct Mailbox: Identifiable, Hashable {
    let id: String
    let name: String
    let icon: String
}

struct MailRootView: View {
    let mailboxes: [Mailbox]
    @State private var selection: Mailbox.ID?

    var body: some View {
        NavigationSplitView {
            List(mailboxes, selection: $selection) { box in
                Label(box.name, systemImage: box.icon)
            }
            .navigationTitle("Mailboxes")
        } detail: {
            if let selection, let box = mailboxes.first(where: { $0.id == selection }) {
                Text(box.name).font(.largeTitle)
            } else {
                ContentUnavailableView("Select a mailbox", systemImage: "tray")
            }
        }
        .navigationSplitViewStyle(.balanced)
    }
}
