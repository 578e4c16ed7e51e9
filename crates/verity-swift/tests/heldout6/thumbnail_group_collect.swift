import UIKit

enum ThumbnailRenderer {
    static func render(_ images: [UIImage], side: CGFloat) async -> [UIImage] {
        await withTaskGroup(of: UIImage?.self) { group in
            for image in images {
                group.addTask {
                    await image.byPreparingThumbnail(ofSize: CGSize(width: side, height: side))
                }
            }
            let results = await group.collect()
            return results.compactMap { $0 }
        }
    }
}
