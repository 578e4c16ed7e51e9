import UIKit

struct Contact: Hashable {
    let name: String
    let phone: String
}

final class ContactsViewController: UITableViewController {
    private var dataSource: UITableViewDiffableDataSource<Int, Contact>!

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Contacts"
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "contact")
        dataSource = UITableViewDiffableDataSource(tableView: tableView) { tableView, indexPath, contact in
            let cell = tableView.dequeueReusableCell(withIdentifier: "contact", for: indexPath)
            var content = cell.defaultContentConfiguration()
            content.text = contact.name
            content.secondaryText = contact.phone
            content.image = UIImage(systemName: "person.crop.circle")
            content.secondaryTextProperties.color = .secondaryLabel
            cell.contentConfiguration = content
            cell.accessoryType = .disclosureIndicator
            return cell
        }
        var snapshot = NSDiffableDataSourceSnapshot<Int, Contact>()
        snapshot.appendSections([0])
        snapshot.appendItems([Contact(name: "Ada", phone: "555-0101")])
        dataSource.apply(snapshot, animatingDifferences: false)
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath, animated: true)
    }
}
