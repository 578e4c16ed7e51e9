import SwiftUI

struct Mailbox: Identifiable, Hashable {
    let id: String
    let name: String
    let unread: Int
}

struct MailWindow: View {
    let mailboxes: [Mailbox]
    @State private var selected: Mailbox?
    @State private var visibility: NavigationSplitViewVisibility = .all

    var body: some View {
        NavigationSplitView(columnVisibility: $visibility) {
            List(mailboxes, selection: $selected) { box in
                NavigationLink(value: box) {
                    Label(box.name, systemImage: "tray")
                        .badge(box.unread)
                }
            }
            .navigationSplitViewColumnWidth(min: 180, ideal: 220)
        } detail: {
            if let selected {
                Text(selected.name).font(.largeTitle)
            } else {
                Text("Select a mailbox")
            }
        }
        .navigationSplitViewStyle(.balanced)
    }
}
