import UIKit

actor ImageCache {
    static let shared = ImageCache()

    private var images: [URL: UIImage] = [:]
    private var inFlight: [URL: Task<UIImage?, Never>] = [:]

    nonisolated let maxEntries = 200

    func image(for url: URL) async -> UIImage? {
        if let cached = images[url] {
            return cached
        }
        if let task = inFlight[url] {
            return await task.value
        }
        let task = Task<UIImage?, Never> {
            guard let data = try? await URLSession.shared.data(from: url).0 else { return nil }
            return UIImage(data: data)
        }
        inFlight[url] = task
        let image = await task.value
        inFlight[url] = nil
        if let image {
            if images.count >= maxEntries, let first = images.keys.first {
                images.removeValue(forKey: first)
            }
            images[url] = image
        }
        return image
    }

    func clear() {
        images.removeAll()
        inFlight.values.forEach { $0.cancel() }
        inFlight.removeAll()
    }

    nonisolated func describe() -> String {
        "ImageCache(max: \(maxEntries))"
    }
}

@MainActor
final class AvatarLoader {
    var image: UIImage?

    func load(_ url: URL) async {
        image = await ImageCache.shared.image(for: url)
    }
}
