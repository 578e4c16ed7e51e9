import Foundation
import SwiftUI

extension URLSession {
    func fetchJSON<T: Decodable>(_ type: T.Type, from url: URL) async throws -> T {
        let (data, _) = try await data(from: url)
        return try JSONDecoder().decode(type, from: data)
    }
}

extension Color {
    static let brandPrimary = Color(red: 0.1, green: 0.4, blue: 0.9)
    init(hex: String) {
        self.init(red: 0, green: 0, blue: 0)
    }
}

extension View {
    func cardStyle() -> some View {
        padding().background(.thinMaterial, in: RoundedRectangle(cornerRadius: 12))
    }
}

struct Card: View {
    var body: some View {
        Text("Hi")
            .foregroundStyle(Color.brandPrimary)
            .background(Color(hex: "#FFFFFF"))
            .cardStyle()
    }
}

func go(_ url: URL) async throws -> [String] {
    try await URLSession.shared.fetchJSON([String].self, from: url)
}
