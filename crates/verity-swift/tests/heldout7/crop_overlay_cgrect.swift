import UIKit

struct CropGeometry {
    var imageSize: CGSize
    var viewBounds: CGRect

    func cropRect(aspect: CGFloat) -> CGRect {
        let inset = viewBounds.insetBy(dx: 24, dy: 24)
        let width = min(inset.width, inset.height * aspect)
        let height = width / aspect
        return CGRect(x: inset.midX - width / 2, y: inset.midY - height / 2, width: width, height: height)
    }

    func imageRect(for crop: CGRect) -> CGRect {
        let scale = CGAffineTransform(scaleX: imageSize.width / viewBounds.width,
                                      y: imageSize.height / viewBounds.height)
        return crop.applying(scale).intersection(CGRect(origin: .zero, size: imageSize))
    }

    func isHandle(_ point: CGPoint, of crop: CGRect) -> Bool {
        let corner = CGRect(x: crop.maxX - 22, y: crop.maxY - 22, width: 44, height: 44)
        return corner.contains(point)
    }
}
