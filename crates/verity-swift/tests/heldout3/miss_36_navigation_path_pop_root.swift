import SwiftUI

struct CheckoutFlow: View {
    @State private var route = NavigationPath()

    var body: some View {
        NavigationStack(path: $route) {
            Button("Start") { route.append(1) }
                .navigationDestination(for: Int.self) { step in
                    VStack {
                        Text("Step \(step)")
                        Button("Next") { route.append(step + 1) }
                        Button("Done") { route.popToRoot() }
                    }
                }
        }
    }
}
