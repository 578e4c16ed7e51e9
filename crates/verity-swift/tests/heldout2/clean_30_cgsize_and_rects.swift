import UIKit

enum TextMeasure {
    static func height(of text: String, width: CGFloat, font: UIFont) -> CGFloat {
        let bounds = CGSize(width: width, height: .greatestFiniteMagnitude)
        let rect = (text as NSString).boundingRect(
            with: bounds,
            options: [.usesLineFragmentOrigin, .usesFontLeading],
            attributes: [.font: font],
            context: nil
        )
        return ceil(rect.height)
    }

    static func badgeFrame(in container: CGRect) -> CGRect {
        let size = CGSize(width: 24, height: 24)
        let origin = CGPoint(x: container.maxX - size.width, y: container.minY)
        return CGRect(origin: origin, size: size).insetBy(dx: 2, dy: 2)
    }
}
