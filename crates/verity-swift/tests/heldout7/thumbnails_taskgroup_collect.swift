import UIKit

struct ThumbnailService {
    let size = CGSize(width: 120, height: 120)

    func thumbnails(for urls: [URL]) async throws -> [UIImage] {
        try await withThrowingTaskGroup(of: UIImage?.self) { group in
            for url in urls {
                group.addTask {
                    let (data, _) = try await URLSession.shared.data(from: url)
                    return UIImage(data: data)?.byPreparingThumbnail(ofSize: size)
                }
            }
            let images = try await group.collectAll()
            return images.compactMap { $0 }
        }
    }
}
