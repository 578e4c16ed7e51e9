import AVFoundation

struct ClipInfo {
    let seconds: Double
    let playable: Bool
}

func clipInfo(at url: URL) async throws -> ClipInfo {
    let asset = AVURLAsset(url: url)
    let (duration, playable) = try await asset.load(.duration, .isPlayable)
    return ClipInfo(seconds: duration.seconds, playable: playable)
}
