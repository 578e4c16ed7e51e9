import UIKit

final class TagsViewController: UIViewController {
    enum Section { case main }

    private var collectionView: UICollectionView!
    private var dataSource: UICollectionViewDiffableDataSource<Section, String>!
    private var tags = ["swift", "uikit", "concurrency", "widgets", "swiftdata"]

    override func viewDidLoad() {
        super.viewDidLoad()
        var config = UICollectionLayoutListConfiguration(appearance: .insetGrouped)
        config.trailingSwipeActionsConfigurationProvider = { [weak self] indexPath in
            let delete = UIContextualAction(style: .destructive, title: "Delete") { _, _, done in
                self?.remove(at: indexPath)
                done(true)
            }
            return UISwipeActionsConfiguration(actions: [delete])
        }
        let layout = UICollectionViewCompositionalLayout.list(using: config)
        collectionView = UICollectionView(frame: view.bounds, collectionViewLayout: layout)
        collectionView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        view.addSubview(collectionView)

        let registration = UICollectionView.CellRegistration<UICollectionViewListCell, String> { cell, _, tag in
            var content = cell.defaultContentConfiguration()
            content.text = "#\(tag)"
            content.secondaryText = "\(tag.count) letters"
            cell.contentConfiguration = content
            cell.accessories = [.disclosureIndicator()]
        }
        dataSource = UICollectionViewDiffableDataSource(collectionView: collectionView) { collectionView, indexPath, tag in
            collectionView.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: tag)
        }
        applySnapshot(animated: false)
    }

    private func remove(at indexPath: IndexPath) {
        guard let tag = dataSource.itemIdentifier(for: indexPath) else { return }
        tags.removeAll { $0 == tag }
        applySnapshot(animated: true)
    }

    private func applySnapshot(animated: Bool) {
        var snapshot = NSDiffableDataSourceSnapshot<Section, String>()
        snapshot.appendSections([.main])
        snapshot.appendItems(tags)
        dataSource.apply(snapshot, animatingDifferences: animated)
    }
}
