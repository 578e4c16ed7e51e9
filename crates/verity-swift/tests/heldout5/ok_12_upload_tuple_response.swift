import Foundation

struct UploadClient {
    let endpoint: URL

    func upload(_ payload: Data, token: String) async throws -> Int {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = 30

        let (data, response) = try await URLSession.shared.upload(for: request, from: payload)
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw URLError(.badServerResponse)
        }
        let body = String(decoding: data, as: UTF8.self)
        for (index, line) in body.split(separator: "\n").enumerated() where index.isMultiple(of: 2) {
            print(line.trimmingCharacters(in: .whitespaces))
        }
        return http.statusCode
    }
}
