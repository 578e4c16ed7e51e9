import AVFoundation
import SwiftUI

@MainActor
final class PodcastPlayer: ObservableObject {
    private let player: AVPlayer
    @Published var playing = false

    init(url: URL) {
        player = AVPlayer(url: url)
    }

    func toggle() {
        if player.isPlaying {
            player.pause()
        } else {
            player.play()
        }
        playing = player.rate > 0
    }

    func skip(by seconds: Double) {
        let current = player.currentTime()
        let target = CMTimeAdd(current, CMTime(seconds: seconds, preferredTimescale: 600))
        player.seek(to: target)
    }
}
