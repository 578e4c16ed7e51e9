import UIKit

final class EmailViewController: UIViewController {
    private let field = UITextField()
    private let hint = UILabel()
    private let stack = UIStackView()

    override func viewDidLoad() {
        super.viewDidLoad()
        field.keyboardType = .emailAddress
        field.borderStyle = .roundedRect
        field.returnKeyType = .done
        field.autocapitalizationType = .none
        hint.textAlignment = .center
        hint.textColor = .secondaryLabel
        stack.axis = .vertical
        stack.alignment = .fill
        stack.spacing = 8
        stack.addArrangedSubview(field)
        stack.addArrangedSubview(hint)
        view.addSubview(stack)
        if field.keyboardType != .emailAddress {
            hint.text = "Unexpected keyboard"
        }
    }
}
