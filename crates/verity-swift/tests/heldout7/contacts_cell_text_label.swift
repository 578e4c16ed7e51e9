import UIKit

final class TeamViewController: UITableViewController {
    private var members: [(name: String, role: String)] = [
        ("Ana", "Design"), ("Ben", "iOS"), ("Chloe", "Backend"),
    ]

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Team"
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        members.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "member")
            ?? UITableViewCell(style: .subtitle, reuseIdentifier: "member")
        let member = members[indexPath.row]
        cell.textLabel?.text = member.name
        cell.detailTextLabel?.text = member.role
        return cell
    }
}
