import SwiftUI

struct DownloadButton: View {
    @State private var downloads = 0
    @State private var isDownloading = false

    var body: some View {
        Button {
            isDownloading = true
            downloads += 1
            Task {
                try? await Task.sleep(nanoseconds: 800_000_000)
                isDownloading = false
            }
        } label: {
            Label("Download", systemImage: "arrow.down.circle")
                .symbolEffect(.bounce, value: downloads)
        }
        .disabled(isDownloading)
    }
}
