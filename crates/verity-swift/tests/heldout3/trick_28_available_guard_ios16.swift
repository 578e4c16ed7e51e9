import SwiftUI

struct EmptyInbox: View {
    var body: some View {
        if #available(iOS 17.0, *) {
            ContentUnavailableView("No messages", systemImage: "tray", description: Text("New mail shows up here."))
        } else {
            VStack(spacing: 8) {
                Image(systemName: "tray").font(.largeTitle)
                Text("No messages")
            }
            .foregroundStyle(.secondary)
        }
    }
}
