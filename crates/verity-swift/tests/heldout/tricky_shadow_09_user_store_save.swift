import SwiftUI

struct Configuration: Codable {
    var timeout: Double = 30
    var retries: Int = 2
    var endpoint = "https://api.example.com"
}

@MainActor
final class ConfigurationStore: ObservableObject {
    @Published var configuration = Configuration()
    private let key = "configuration"

    init() {
        if let data = UserDefaults.standard.data(forKey: key),
           let saved = try? JSONDecoder().decode(Configuration.self, from: data) {
            configuration = saved
        }
    }

    func save() {
        if let data = try? JSONEncoder().encode(configuration) {
            UserDefaults.standard.set(data, forKey: key)
        }
    }
}

struct ConfigurationForm: View {
    @StateObject private var store = ConfigurationStore()

    var body: some View {
        Form {
            Stepper("Timeout: \(Int(store.configuration.timeout)) s",
                    value: $store.configuration.timeout, in: 5...120, step: 5)
            Stepper("Retries: \(store.configuration.retries)",
                    value: $store.configuration.retries, in: 0...5)
            TextField("Endpoint", text: $store.configuration.endpoint)
            Button("Save") { store.save() }
        }
    }
}
