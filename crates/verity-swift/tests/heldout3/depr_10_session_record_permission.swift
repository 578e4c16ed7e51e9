import AVFAudio

final class MicrophoneAccess {
    func request(_ done: @escaping (Bool) -> Void) {
        let session = AVAudioSession.sharedInstance()
        session.requestRecordPermission { granted in
            DispatchQueue.main.async { done(granted) }
        }
    }
}
