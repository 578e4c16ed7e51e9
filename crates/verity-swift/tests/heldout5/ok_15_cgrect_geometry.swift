import UIKit
import CoreLocation

struct OverlayGeometry {
    let bounds: CGRect

    var badgeFrame: CGRect {
        let inset = bounds.insetBy(dx: 8, dy: 8)
        return CGRect(x: inset.maxX - 24, y: inset.minY, width: 24, height: 24)
    }

    var center: CGPoint {
        CGPoint(x: bounds.midX, y: bounds.midY)
    }

    func rotation(degrees: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: degrees * .pi / 180).scaledBy(x: 1.1, y: 1.1)
    }

    func contains(_ point: CGPoint) -> Bool {
        bounds.contains(point) && !badgeFrame.intersects(CGRect(origin: point, size: .zero))
    }

    static func midpoint(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D) -> CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: (a.latitude + b.latitude) / 2,
                               longitude: (a.longitude + b.longitude) / 2)
    }
}
