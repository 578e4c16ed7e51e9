import SwiftUI

struct ShareSheetHost: View {
    @State private var isSharing = false
    let link: URL

    var body: some View {
        Button {
            isSharing = true
        } label: {
            Label("Share", systemImage: "square.and.arrow.up")
        }
        .sheet(isPresented: $isSharing) {
            VStack(spacing: 12) {
                Text(link.absoluteString)
                ShareLink(item: link)
            }
            .presentationDetents([.half, .large])
        }
    }
}
