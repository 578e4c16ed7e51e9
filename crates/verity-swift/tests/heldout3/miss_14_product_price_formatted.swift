import SwiftUI
import StoreKit

@MainActor
@Observable
final class TipJar {
    var label = ""

    func load() async {
        do {
            let products = try await Product.products(for: ["tip.small", "tip.large"])
            label = products.first?.priceFormatted ?? "-"
        } catch {
            label = "Unavailable"
        }
    }
}

struct TipJarView: View {
    @State private var jar = TipJar()

    var body: some View {
        Text("Leave a tip: \(jar.label)")
            .task { await jar.load() }
    }
}
