import AVFoundation
import Observation

@Observable
final class PodcastPlayer {
    private let player = AVPlayer()
    var title = ""

    func load(_ url: URL, title: String) {
        player.replaceCurrentItem(with: AVPlayerItem(url: url))
        self.title = title
    }

    func togglePlayback() {
        if player.isPlaying {
            player.pause()
        } else {
            player.play()
        }
    }

    func skip(seconds: Double) {
        let target = player.currentTime() + CMTime(seconds: seconds, preferredTimescale: 600)
        player.seek(to: target)
    }
}
