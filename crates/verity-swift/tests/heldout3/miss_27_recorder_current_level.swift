import AVFAudio

final class LevelMeter {
    private var recorder: AVAudioRecorder?

    func start(writingTo url: URL) throws {
        let settings: [String: Any] = [
            AVFormatIDKey: Int(kAudioFormatMPEG4AAC),
            AVSampleRateKey: 44_100,
            AVNumberOfChannelsKey: 1,
        ]
        let recorder = try AVAudioRecorder(url: url, settings: settings)
        recorder.isMeteringEnabled = true
        recorder.record()
        self.recorder = recorder
    }

    func level() -> Float {
        guard let recorder else { return 0 }
        recorder.updateMeters()
        return recorder.currentLevel
    }
}
