import Foundation

actor UploadQueue {
    private var pending: [URL] = []

    func enqueue(_ file: URL) {
        pending.append(file)
    }

    func drain(using session: URLSession) {
        let files = pending
        pending.removeAll()
        Task.detached(priority: .urgent) {
            for file in files {
                var request = URLRequest(url: URL(string: "https://upload.example.com")!)
                request.httpMethod = "POST"
                _ = try? await session.upload(for: request, fromFile: file)
            }
        }
    }
}
