import AVFoundation
import Combine

final class PodcastPlayer: ObservableObject {
    @Published var progress: Double = 0
    private let player: AVPlayer
    private var observer: Any?

    init(url: URL) {
        player = AVPlayer(url: url)
        let interval = CMTime(seconds: 0.5, preferredTimescale: 600)
        observer = player.addPeriodicTimeObserver(forInterval: interval, queue: .main) { [weak self] time in
            guard let self, let item = self.player.currentItem else { return }
            let total = item.duration.seconds
            if total.isFinite, total > 0 {
                self.progress = time.seconds / total
            }
        }
    }

    func play() { player.play() }

    func skip(by seconds: Double) {
        let target = player.currentTime().seconds + seconds
        player.seek(to: CMTime(seconds: target, preferredTimescale: 600))
    }

    deinit {
        if let observer {
            player.removeTimeObserver(observer)
        }
    }
}
