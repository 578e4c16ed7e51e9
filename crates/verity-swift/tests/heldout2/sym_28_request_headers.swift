import Foundation

struct LoginBody: Encodable {
    let email: String
    let password: String
}

func login(email: String, password: String) async throws -> Data {
    var request = URLRequest(url: URL(string: "https://api.example.com/login")!)
    request.httpMethod = "POST"
    request.headers["Content-Type"] = "application/json"
    request.httpBody = try JSONEncoder().encode(LoginBody(email: email, password: password))
    request.timeoutInterval = 20
    let (data, _) = try await URLSession.shared.data(for: request)
    return data
}
