import SwiftUI

struct ArchiveView: View {
    let items: [String]

    var body: some View {
        if items.isEmpty {
            emptyState
        } else {
            List(items, id: \.self) { Text($0) }
        }
    }

    @ViewBuilder
    private var emptyState: some View {
        if #available(iOS 17.0, *) {
            ContentUnavailableView("Nothing archived", systemImage: "archivebox")
        } else {
            VStack(spacing: 8) {
                Image(systemName: "archivebox")
                    .font(.largeTitle)
                Text("Nothing archived")
            }
            .foregroundStyle(.secondary)
        }
    }
}
