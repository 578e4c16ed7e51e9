import UIKit

struct ThumbnailSpec {
    let points: CGSize

    var pixelSize: CGSize {
        let scale = UIScreen.main.scale
        return CGSize(width: points.width * scale, height: points.height * scale)
    }
}
