import AVFAudio

enum MicPermission {
    static func request() async -> Bool {
        await AVAudioApplication.requestRecordPermission()
    }
}
