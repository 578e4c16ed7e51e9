import UIKit

extension UIImage {
    func resized(to size: CGSize, background: UIColor = .white) -> UIImage {
        let renderer = UIGraphicsImageRenderer(size: size)
        return renderer.image { context in
            background.setFill()
            context.fill(CGRect(origin: .zero, size: size))
            context.cgContext.setShouldAntialias(true)
            draw(in: CGRect(origin: .zero, size: size))
        }
    }
}
