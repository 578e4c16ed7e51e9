import UIKit

struct Country {
    let name: String
    let capital: String
}

final class CountriesViewController: UITableViewController {
    private let countries: [Country]
    private let reuseID = "CountryCell"

    init(countries: [Country]) {
        self.countries = countries
        super.init(style: .insetGrouped)
    }

    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Countries"
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: reuseID)
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        countries.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: reuseID, for: indexPath)
        var content = cell.defaultContentConfiguration()
        content.text = countries[indexPath.row].name
        content.secondaryText = countries[indexPath.row].capital
        content.image = UIImage(systemName: "globe")
        cell.contentConfiguration = content
        cell.accessoryType = .disclosureIndicator
        return cell
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath, animated: true)
        let detail = UIViewController()
        detail.title = countries[indexPath.row].capital
        navigationController?.pushViewController(detail, animated: true)
    }
}
