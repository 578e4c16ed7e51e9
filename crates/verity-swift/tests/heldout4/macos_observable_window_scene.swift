import SwiftUI
import Observation

@Observable
final class DownloadQueue {
    var pending: [URL] = []
    var finished = 0

    var total: Int { pending.count + finished }
}

@main
struct DownloaderApp: App {
    @State private var queue = DownloadQueue()

    var body: some Scene {
        WindowGroup {
            QueueView()
                .environment(queue)
        }
        .defaultSize(width: 480, height: 320)
    }
}

struct QueueView: View {
    @Environment(DownloadQueue.self) private var queue

    var body: some View {
        VStack {
            ProgressView(value: Double(queue.finished), total: Double(max(queue.total, 1)))
            Text("\(queue.finished) of \(queue.total) done")
        }
        .padding()
    }
}
