import UIKit

final class TagsViewController: UITableViewController {
    var tags: [String] = ["swift", "ios", "uikit"]

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "TagCell")
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        tags.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "TagCell", for: indexPath)
        cell.titleLabel.text = "#" + tags[indexPath.row]
        cell.accessoryType = .disclosureIndicator
        return cell
    }
}
