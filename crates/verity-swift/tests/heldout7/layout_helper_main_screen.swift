import UIKit

final class GalleryLayoutFactory {
    static func makeLayout(columns: Int) -> UICollectionViewFlowLayout {
        let layout = UICollectionViewFlowLayout()
        let spacing: CGFloat = 2
        let screenWidth = UIScreen.main.bounds.width
        let side = (screenWidth - spacing * CGFloat(columns - 1)) / CGFloat(columns)
        layout.itemSize = CGSize(width: side, height: side)
        layout.minimumInteritemSpacing = spacing
        layout.minimumLineSpacing = spacing
        return layout
    }
}
