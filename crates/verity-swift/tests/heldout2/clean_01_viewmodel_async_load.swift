import SwiftUI
import Observation

struct Repo: Decodable, Identifiable {
    let id: Int
    let name: String
    let stargazersCount: Int
}

@Observable
final class ReposModel {
    var repos: [Repo] = []
    var isLoading = false
    var errorMessage: String?

    func load(user: String) async {
        isLoading = true
        defer { isLoading = false }
        var request = URLRequest(url: URL(string: "https://api.github.com/users/\(user)/repos")!)
        request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
                errorMessage = "Server error"
                return
            }
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            repos = try decoder.decode([Repo].self, from: data)
        } catch {
            errorMessage = error.localizedDescription
        }
    }
}

struct ReposView: View {
    @State private var model = ReposModel()

    var body: some View {
        NavigationStack {
            Group {
                if model.isLoading && model.repos.isEmpty {
                    ProgressView()
                } else if let message = model.errorMessage {
                    ContentUnavailableView("Could not load", systemImage: "wifi.slash", description: Text(message))
                } else {
                    List(model.repos) { repo in
                        LabeledContent(repo.name, value: repo.stargazersCount, format: .number)
                    }
                }
            }
            .navigationTitle("Repositories")
            .task { await model.load(user: "apple") }
            .refreshable { await model.load(user: "apple") }
        }
    }
}
