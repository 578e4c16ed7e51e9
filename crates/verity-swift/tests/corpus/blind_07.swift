import SwiftUI

struct ShareRow: View {
    let url: URL
    @State private var showConfirm = false
    @State private var selection: Set<Int> = []

    var body: some View {
        HStack {
            Label("Share", systemImage: "square.and.arrow.up")
            Spacer()
            ShareLink(item: url) {
                Image(systemName: "square.and.arrow.up")
            }
        }
        .swipeActions(edge: .trailing, allowsFullSwipe: true) {
            Button(role: .destructive) {
                showConfirm = true
            } label: {
                Label("Delete", systemImage: "trash")
            }
        }
        .confirmationDialog("Delete?", isPresented: $showConfirm, titleVisibility: .visible) {
            Button("Delete", role: .destructive) { }
            Button("Cancel", role: .cancel) { }
        }
        .contextMenu {
            Button("Copy") { UIPasteboard.general.string = url.absoluteString }
        }
    }
}
