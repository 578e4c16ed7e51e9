import SwiftUI

struct Flow: View {
    @State private var path = NavigationPath()

    var body: some View {
        NavigationStack(path: $path) {
            Button("Next") { path.append(path.count + 1) }
                .navigationDestination(for: Int.self) { step in
                    VStack {
                        Text("Step \(step)")
                        Button("Back") {
                            if !path.isEmpty { path.removeLast() }
                        }
                        Button("Home") { path.removeLast(path.count) }
                    }
                    .toolbar(.hidden, for: .navigationBar, .tabBar)
                }
        }
    }
}
