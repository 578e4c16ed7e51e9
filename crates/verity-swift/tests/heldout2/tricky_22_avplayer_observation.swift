import AVFoundation
import Combine

@MainActor
final class PlayerModel: ObservableObject {
    let player = AVPlayer()
    @Published var progress: Double = 0
    private var timeObserver: Any?

    func load(_ url: URL) {
        player.replaceCurrentItem(with: AVPlayerItem(url: url))
        timeObserver = player.addPeriodicTimeObserver(
            forInterval: CMTime(seconds: 0.5, preferredTimescale: 600),
            queue: .main
        ) { [weak self] time in
            guard let self, let item = self.player.currentItem else { return }
            let total = item.duration.seconds
            if total.isFinite && total > 0 {
                self.progress = time.seconds / total
            }
        }
    }

    var isPlaying: Bool {
        player.timeControlStatus == .playing
    }

    func toggle() {
        isPlaying ? player.pause() : player.play()
    }
}
