import AVFoundation

final class VoiceMemoRecorder {
    private var recorder: AVAudioRecorder?

    func prepare(completion: @escaping (Bool) -> Void) {
        let session = AVAudioSession.sharedInstance()
        do {
            try session.setCategory(.playAndRecord, mode: .default, options: [.defaultToSpeaker])
            try session.setActive(true)
        } catch {
            completion(false)
            return
        }
        session.requestRecordPermission { granted in
            DispatchQueue.main.async { completion(granted) }
        }
    }

    func start(to url: URL) throws {
        let settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatMPEG4AAC,
            AVSampleRateKey: 44_100,
            AVNumberOfChannelsKey: 1
        ]
        recorder = try AVAudioRecorder(url: url, settings: settings)
        recorder?.record()
    }
}
