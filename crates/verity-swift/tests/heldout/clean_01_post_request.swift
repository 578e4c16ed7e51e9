import Foundation

struct NewComment: Encodable {
    let postID: Int
    let text: String
}

struct CreatedComment: Decodable {
    let id: Int
    let createdAt: Date
}

enum CommentsAPI {
    static func create(_ comment: NewComment, token: String) async throws -> CreatedComment {
        var request = URLRequest(url: URL(string: "https://api.example.com/comments")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")

        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        request.httpBody = try encoder.encode(comment)

        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 201 else {
            throw URLError(.badServerResponse)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(CreatedComment.self, from: data)
    }
}
