import AVFAudio
import Observation

@Observable
final class SoundboardPlayer {
    private var player: AVAudioPlayer?
    var title = ""
    var isPlaying = false
    var duration: TimeInterval = 0

    func play(_ url: URL, title: String) throws {
        let player = try AVAudioPlayer(contentsOf: url)
        player.numberOfLoops = 0
        player.prepareToPlay()
        player.play()
        self.player = player
        self.title = title
        duration = player.duration
        isPlaying = player.isPlaying
    }

    func stop() {
        player?.stop()
        isPlaying = false
    }

    func progress() -> Double {
        guard let player, duration > 0 else { return 0 }
        let rate = player.currentTime / duration
        return min(max(rate, 0), 1)
    }
}
