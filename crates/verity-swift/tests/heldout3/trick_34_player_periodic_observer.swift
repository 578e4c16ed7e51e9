import AVFoundation
import Combine

@MainActor
final class PodcastPlayer: ObservableObject {
    @Published private(set) var progress: Double = 0
    private let player = AVPlayer()
    private var timeToken: Any?
    private var endToken: NSObjectProtocol?

    func load(_ url: URL) {
        let item = AVPlayerItem(url: url)
        player.replaceCurrentItem(with: item)
        timeToken = player.addPeriodicTimeObserver(
            forInterval: CMTime(seconds: 0.5, preferredTimescale: 600),
            queue: .main
        ) { [weak self] time in
            guard let total = self?.player.currentItem?.duration.seconds, total > 0 else { return }
            self?.progress = time.seconds / total
        }
        endToken = NotificationCenter.default.addObserver(
            forName: AVPlayerItem.didPlayToEndTimeNotification,
            object: item,
            queue: .main
        ) { [weak self] _ in
            self?.player.seek(to: .zero)
        }
        player.play()
    }
}
