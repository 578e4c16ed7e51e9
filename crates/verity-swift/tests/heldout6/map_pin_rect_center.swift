import UIKit

final class PinOverlayView: UIView {
    var pinImage = UIImage(systemName: "mappin.circle.fill")

    override func draw(_ rect: CGRect) {
        guard let pinImage else { return }
        let size = CGSize(width: 32, height: 32)
        let origin = CGPoint(x: rect.center.x - size.width / 2, y: rect.center.y - size.height)
        pinImage.draw(in: CGRect(origin: origin, size: size))

        let shadow = UIBezierPath(ovalIn: CGRect(x: rect.midX - 8, y: rect.midY - 2, width: 16, height: 4))
        UIColor.black.withAlphaComponent(0.2).setFill()
        shadow.fill()
    }
}
