import SwiftUI

struct RetryingLoader: View {
    @State private var attempts = 0
    let load: () async -> Bool

    var body: some View {
        Text("Attempts: \(attempts)")
            .padding()
            .background(.ultraThinMaterial, in: RoundedRectangle(cornerRadius: 8))
            .task {
                while attempts < 3 {
                    attempts += 1
                    if await load() { break }
                    if #available(iOS 16.0, *) {
                        try? await Task.sleep(for: .milliseconds(500))
                    } else {
                        try? await Task.sleep(nanoseconds: 500_000_000)
                    }
                }
            }
    }
}
