import UIKit

final class ContactsViewController: UITableViewController {
    private let names = ["Ada", "Grace", "Linus"]

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "contact")
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        names.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "contact", for: indexPath)
        var config = cell.defaultContentConfiguration()
        config.text = names[indexPath.row]
        config.textColor = .secondaryLabel
        cell.contentConfiguration = config
        return cell
    }
}
