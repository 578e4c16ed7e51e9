import UIKit

final class RecentCallsViewController: UIViewController, UITableViewDataSource {
    private let tableView = UITableView(frame: .zero, style: .insetGrouped)
    private var calls: [(name: String, time: Date)] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.frame = view.bounds
        tableView.dataSource = self
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "call")
        view.addSubview(tableView)
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        calls.count
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "call", for: indexPath)
        var content = cell.defaultContentConfiguration()
        content.text = calls[indexPath.row].name
        content.detailText = calls[indexPath.row].time.formatted(date: .omitted, time: .shortened)
        cell.contentConfiguration = content
        return cell
    }
}
