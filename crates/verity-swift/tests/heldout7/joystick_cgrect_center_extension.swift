import UIKit

extension CGRect {
    var center: CGPoint { CGPoint(x: midX, y: midY) }
}

final class JoystickView: UIView {
    private let knob = UIView(frame: CGRect(x: 0, y: 0, width: 44, height: 44))
    var onMove: ((CGVector) -> Void)?

    override func layoutSubviews() {
        super.layoutSubviews()
        knob.layer.cornerRadius = 22
        knob.backgroundColor = .systemGray
        if knob.superview == nil { addSubview(knob) }
        knob.center = bounds.center
    }

    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let point = touches.first?.location(in: self) else { return }
        let origin = bounds.center
        let dx = point.x - origin.x, dy = point.y - origin.y
        let radius = min(hypot(dx, dy), bounds.width / 2)
        let angle = atan2(dy, dx)
        knob.center = CGPoint(x: origin.x + cos(angle) * radius, y: origin.y + sin(angle) * radius)
        onMove?(CGVector(dx: cos(angle) * radius, dy: sin(angle) * radius))
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        UIView.animate(withDuration: 0.2) { self.knob.center = self.bounds.center }
        onMove?(.zero)
    }
}
