import AVFoundation

final class AmbientSound {
    private var player: AVAudioPlayer?

    func play(named name: String) {
        guard let url = Bundle.main.url(forResource: name, withExtension: "mp3") else { return }
        do {
            let player = try AVAudioPlayer(contentsOf: url)
            player.loops = true
            player.volume = 0.4
            player.prepareToPlay()
            player.play()
            self.player = player
        } catch {
            print("Could not play \(name): \(error)")
        }
    }

    func stop() {
        player?.stop()
    }
}
