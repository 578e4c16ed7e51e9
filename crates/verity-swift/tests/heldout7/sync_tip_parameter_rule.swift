import SwiftUI
import TipKit

struct SyncTip: Tip {
    @Parameter
    static var hasAccount: Bool = false

    var title: Text { Text("Sync across devices") }
    var message: Text? { Text("Turn on iCloud sync to see your notes everywhere.") }

    var rules: [Rule] {
        #Rule(Self.$hasAccount) { $0 == true }
    }
}

struct NotesToolbar: View {
    private let syncTip = SyncTip()
    @State private var syncing = false

    var body: some View {
        Button {
            syncing.toggle()
            syncTip.invalidate(reason: .actionPerformed)
        } label: {
            Image(systemName: syncing ? "icloud.fill" : "icloud")
        }
        .popoverTip(syncTip, arrowEdge: .top)
        .task {
            SyncTip.hasAccount = true
        }
    }
}
