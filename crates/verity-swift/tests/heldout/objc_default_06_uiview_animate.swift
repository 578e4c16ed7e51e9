import UIKit

final class ToastView: UIView {
    private let label = UILabel()

    init(text: String) {
        super.init(frame: .zero)
        backgroundColor = .secondarySystemBackground
        layer.cornerRadius = 10
        alpha = 0
        label.attributedText = NSAttributedString(string: text)
        label.font = UIFont.preferredFont(forTextStyle: .subheadline)
        label.adjustsFontForContentSizeCategory = true
        addSubview(label)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        label.frame = bounds.insetBy(dx: 12, dy: 8)
    }

    func show(in container: UIView) {
        container.addSubview(self)
        frame = CGRect(x: 20, y: container.bounds.height - 120, width: container.bounds.width - 40, height: 44)
        UIView.animate(withDuration: 0.25) {
            self.alpha = 1
        }
        UIView.animate(withDuration: 0.25, delay: 2.0, options: [.curveEaseIn]) {
            self.alpha = 0
        }
    }
}
