import UIKit

final class ContactsViewController: UITableViewController {
    private var contacts: [(name: String, phone: String)] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Contacts"
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Cell")
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        contacts.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        var config = cell.defaultContentConfiguration()
        config.text = contacts[indexPath.row].name
        config.subtitle = contacts[indexPath.row].phone
        cell.contentConfiguration = config
        return cell
    }
}
