import Foundation

struct Page: Sendable {
    let index: Int
    let bytes: Int
}

func fetchPages(_ urls: [URL], limit: Int) async throws -> [Page] {
    try await withThrowingTaskGroup(of: Page.self, returning: [Page].self) { group in
        var pages: [Page] = []
        var next = 0

        while next < min(limit, urls.count) {
            let index = next
            group.addTask {
                let (data, _) = try await URLSession.shared.data(from: urls[index])
                return Page(index: index, bytes: data.count)
            }
            next += 1
        }
        while let page = try await group.next() {
            pages.append(page)
            if Task.isCancelled {
                group.cancelAll()
                break
            }
            if next < urls.count {
                let index = next
                group.addTask {
                    let (data, _) = try await URLSession.shared.data(from: urls[index])
                    return Page(index: index, bytes: data.count)
                }
                next += 1
            }
        }
        return pages.sorted { $0.index < $1.index }
    }
}

func warmCaches(_ keys: [String]) async {
    await withTaskGroup(of: Void.self) { group in
        for key in keys {
            group.addTask(priority: .background) {
                _ = key.hashValue
            }
        }
        await group.waitForAll()
    }
}
