import UIKit

final class InboxDataSource {
    enum Section: Hashable { case main }

    private let dataSource: UITableViewDiffableDataSource<Section, UUID>

    init(tableView: UITableView) {
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        dataSource = UITableViewDiffableDataSource<Section, UUID>(tableView: tableView) { tableView, indexPath, id in
            let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            var content = cell.defaultContentConfiguration()
            content.text = id.uuidString
            cell.contentConfiguration = content
            return cell
        }
    }

    func show(_ items: [UUID]) {
        var snapshot = NSDiffableDataSourceSnapshot<Section, UUID>()
        snapshot.appendSections([.main])
        snapshot.appendRows(items, toSection: .main)
        dataSource.apply(snapshot, animatingDifferences: true)
    }
}
