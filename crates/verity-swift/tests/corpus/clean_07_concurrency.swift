import Foundation

actor ImageCache {
    private var storage: [URL: Data] = [:]

    func data(for url: URL) async throws -> Data {
        if let cached = storage[url] {
            return cached
        }
        let (data, _) = try await URLSession.shared.data(from: url)
        storage[url] = data
        return data
    }
}

func loadAll(urls: [URL], cache: ImageCache) async -> [Data] {
    await withTaskGroup(of: Data?.self) { group in
        for url in urls {
            group.addTask {
                try? await cache.data(for: url)
            }
        }
        var out: [Data] = []
        for await item in group {
            if let item { out.append(item) }
        }
        return out
    }
}

@MainActor
final class Loader {
    var task: Task<Void, Never>?

    func start() {
        task = Task {
            try? await Task.sleep(nanoseconds: 500_000_000)
            guard !Task.isCancelled else { return }
            print("done")
        }
    }
}
