import AVFoundation

struct TrackInfo {
    let title: String
    let seconds: Double
}

func trackInfo(for url: URL) -> TrackInfo {
    let asset = AVURLAsset(url: url)
    let seconds = asset.duration.seconds
    return TrackInfo(title: url.deletingPathExtension().lastPathComponent, seconds: seconds)
}
