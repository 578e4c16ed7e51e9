import AVFAudio

final class ClickTrack {
    private let engine = AVAudioEngine()
    private let player = AVAudioPlayerNode()

    func start(clickURL: URL) throws {
        let file = try AVAudioFile(forReading: clickURL)
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        engine.mainMixerNode.outputVolume = 0.6
        try engine.start()
        for _ in 0..<8 {
            player.scheduleFile(file, at: nil)
        }
        player.play()
    }

    func stop() {
        player.stop()
        engine.stop()
    }
}
