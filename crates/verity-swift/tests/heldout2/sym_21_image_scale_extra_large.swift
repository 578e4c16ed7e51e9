import SwiftUI

struct EmptyInboxView: View {
    var body: some View {
        VStack(spacing: 12) {
            Image(systemName: "tray")
                .imageScale(.extraLarge)
                .foregroundStyle(.secondary)
            Text("No messages")
                .font(.headline)
            Text("New mail will show up here.")
                .font(.subheadline)
                .foregroundStyle(.secondary)
        }
        .padding()
    }
}
