import UIKit

final class ProfileViewController: UIViewController {
    private let avatar = UIImageView(image: UIImage(systemName: "person.crop.circle"))
    private let nameLabel = UILabel()
    private let editButton = UIButton(type: .system)

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        nameLabel.font = .preferredFont(forTextStyle: .title2)
        nameLabel.text = "Jamie Appleseed"
        editButton.setTitle("Edit profile", for: .normal)
        editButton.addTarget(self, action: #selector(editTapped), for: .touchUpInside)

        let stack = UIStackView(arrangedSubviews: [avatar, nameLabel, editButton])
        stack.axis = .vertical
        stack.alignment = .center
        stack.spacing = 12
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            stack.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 32),
            avatar.widthAnchor.constraint(equalToConstant: 96),
            avatar.heightAnchor.constraint(equalToConstant: 96),
        ])
    }

    @objc private func editTapped() {
        let editor = UIViewController()
        editor.view.backgroundColor = .secondarySystemBackground
        present(UINavigationController(rootViewController: editor), animated: true)
    }
}
