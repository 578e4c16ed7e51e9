import UIKit

struct ThumbnailLoader {
    let session: URLSession = .shared

    func loadAll(_ urls: [URL]) async throws -> [URL: UIImage] {
        try await withThrowingTaskGroup(of: (URL, UIImage?).self) { group in
            for url in urls {
                group.addTask {
                    let (data, _) = try await session.data(from: url)
                    let image = UIImage(data: data)?.preparingThumbnail(of: CGSize(width: 120, height: 120))
                    return (url, image)
                }
            }

            var images: [URL: UIImage] = [:]
            for try await (url, image) in group {
                if let image {
                    images[url] = image
                }
            }
            return images
        }
    }
}
