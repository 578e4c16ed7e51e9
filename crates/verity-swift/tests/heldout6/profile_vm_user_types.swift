import SwiftUI

struct User: Codable, Identifiable {
    let id: Int
    var name: String
    var bio: String
}

final class APIClient {
    static let shared = APIClient()

    func request<T: Decodable>(_ path: String, as type: T.Type = T.self) async throws -> T {
        let url = URL(string: "https://api.example.com")!.appending(path: path)
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode(T.self, from: data)
    }

    func dismiss(notification id: Int) async {}
}

@MainActor
final class ProfileViewModel: ObservableObject {
    @Published var user: User?
    @Published var errorMessage: String?

    func fetch(id: Int) async {
        do {
            user = try await APIClient.shared.request("users/\(id)")
        } catch {
            errorMessage = error.localizedDescription
        }
    }

    func present() -> String {
        user.map { "\($0.name) — \($0.bio)" } ?? "Loading…"
    }
}

struct ProfileView: View {
    @StateObject private var model = ProfileViewModel()
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        VStack {
            Text(model.present())
            Button("Close") { dismiss() }
        }
        .task { await model.fetch(id: 42) }
        .task { await APIClient.shared.dismiss(notification: 1) }
    }
}
