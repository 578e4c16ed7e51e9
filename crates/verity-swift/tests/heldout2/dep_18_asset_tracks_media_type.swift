import AVFoundation

final class VideoInspector {
    let player: AVPlayer

    init(player: AVPlayer) {
        self.player = player
    }

    func videoSize() -> CGSize? {
        guard let asset = player.currentItem?.asset else { return nil }
        guard let track = asset.tracks(withMediaType: .video).first else { return nil }
        let size = track.naturalSize.applying(track.preferredTransform)
        return CGSize(width: abs(size.width), height: abs(size.height))
    }
}
