import UIKit

final class ReceiptsViewController: UITableViewController {
    private var receipts: [(store: String, total: String)] = [("Bakery", "$4.20"), ("Books", "$18.00")]

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        receipts.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "receipt")
            ?? UITableViewCell(style: .value1, reuseIdentifier: "receipt")
        let receipt = receipts[indexPath.row]
        var content = cell.defaultContentConfiguration()
        content.text = receipt.store
        cell.contentConfiguration = content
        cell.detailTextLabel?.text = receipt.total
        return cell
    }
}
