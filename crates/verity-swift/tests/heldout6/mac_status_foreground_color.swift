import SwiftUI

struct SyncStatusView: View {
    let lastSync: Date?
    let isSyncing: Bool

    var body: some View {
        HStack(spacing: 6) {
            if isSyncing {
                ProgressView().controlSize(.small)
            }
            Text(lastSync.map { "Synced \($0.formatted(.relative(presentation: .named)))" } ?? "Never synced")
                .font(.callout)
                .foregroundColor(.secondary)
        }
        .padding(.horizontal)
    }
}
