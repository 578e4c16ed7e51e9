import UIKit

final class ToolbarFactory {
    func makeShareButton(target: Any?, action: Selector) -> UIButton {
        let config = UIImage.SymbolConfiguration(pointSize: 20, weight: .extraBold)
        let image = UIImage(systemName: "square.and.arrow.up", withConfiguration: config)
        let button = UIButton(type: .system)
        button.setImage(image, for: .normal)
        button.addTarget(target, action: action, for: .touchUpInside)
        return button
    }
}
