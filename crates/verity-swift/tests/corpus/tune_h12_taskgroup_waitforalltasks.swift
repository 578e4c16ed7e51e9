import Foundation

func prefetch(_ urls: [URL]) async {
    await withTaskGroup(of: Void.self) { group in
        for url in urls {
            group.addTask {
                _ = try? await URLSession.shared.data(from: url)
            }
        }
        await group.waitForAllTasks()
    }
}
