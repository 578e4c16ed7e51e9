import UIKit

final class CountriesViewController: UIViewController, UITableViewDataSource {
    private let tableView = UITableView(frame: .zero, style: .insetGrouped)
    private let countries = Locale.Region.isoRegions.map(\.identifier).sorted()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Countries"
        tableView.dataSource = self
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "country")
        tableView.frame = view.bounds
        tableView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        view.addSubview(tableView)
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        countries.count
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "country", for: indexPath)
        let code = countries[indexPath.row]
        cell.textLabel?.text = Locale.current.localizedString(forRegionCode: code) ?? code
        cell.accessoryType = .disclosureIndicator
        return cell
    }
}
