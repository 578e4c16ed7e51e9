import AVFoundation

struct VideoInfo {
    let url: URL

    func durationText() -> String {
        let asset = AVURLAsset(url: url)
        let seconds = CMTimeGetSeconds(asset.duration)
        let minutes = Int(seconds) / 60
        let rest = Int(seconds) % 60
        return String(format: "%d:%02d", minutes, rest)
    }
}
