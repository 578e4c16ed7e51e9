import Foundation

struct UploadError: Error {
    let status: Int
}

final class AvatarUploader {
    private let endpoint = URL(string: "https://api.example.com/me/avatar")!

    func upload(_ jpeg: Data) async throws {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "PUT"
        request.setValue("image/jpeg", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = 30
        let (_, response) = try await URLSession.shared.upload(for: request, from: jpeg)
        guard let http = response as? HTTPURLResponse else { return }
        if !(200..<300).contains(http.statusCode) {
            throw UploadError(status: http.statusCode)
        }
        if let etag = http.value(forHTTPHeaderField: "ETag") {
            UserDefaults.standard.set(etag, forKey: "avatarETag")
        }
    }
}
