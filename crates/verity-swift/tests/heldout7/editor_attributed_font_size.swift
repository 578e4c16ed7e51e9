import UIKit

final class MarkdownEditorViewController: UIViewController, UITextViewDelegate {
    private let textView = UITextView()

    override func viewDidLoad() {
        super.viewDidLoad()
        textView.translatesAutoresizingMaskIntoConstraints = false
        textView.delegate = self
        textView.typingAttributes = [
            .font: UIFont.preferredFont(forTextStyle: .body),
            .fontSize: 17,
            .foregroundColor: UIColor.label,
        ]
        view.addSubview(textView)
        NSLayoutConstraint.activate([
            textView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            textView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor),
            textView.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 16),
            textView.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -16),
        ])
    }

    func textViewDidChange(_ textView: UITextView) {
        title = "\(textView.text.count) characters"
    }
}
