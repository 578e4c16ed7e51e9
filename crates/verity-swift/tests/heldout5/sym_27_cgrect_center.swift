import UIKit

final class SpinnerOverlay: UIView {
    private let spinner = UIActivityIndicatorView(style: .large)
    private let label = UILabel()

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = UIColor.black.withAlphaComponent(0.4)
        addSubview(spinner)
        label.textColor = .white
        label.font = .preferredFont(forTextStyle: .footnote)
        addSubview(label)
        spinner.startAnimating()
    }

    required init?(coder: NSCoder) { fatalError("not supported") }

    override func layoutSubviews() {
        super.layoutSubviews()
        spinner.center = bounds.center
        label.sizeToFit()
        label.center = CGPoint(x: bounds.midX, y: spinner.frame.maxY + 20)
    }
}
