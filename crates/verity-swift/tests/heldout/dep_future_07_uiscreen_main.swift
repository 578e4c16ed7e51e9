import UIKit

final class BannerView: UIView {
    private let label = UILabel()

    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .systemYellow
        label.font = .preferredFont(forTextStyle: .callout)
        label.numberOfLines = 2
        addSubview(label)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    func configure(text: String) {
        label.text = text
        let width = UIScreen.main.bounds.width - 32
        let size = label.sizeThatFits(CGSize(width: width, height: .greatestFiniteMagnitude))
        label.frame = CGRect(x: 16, y: 8, width: width, height: size.height)
        frame.size = CGSize(width: width + 32, height: size.height + 16)
    }
}
