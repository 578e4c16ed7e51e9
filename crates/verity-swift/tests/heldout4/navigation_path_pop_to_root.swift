import SwiftUI

struct OnboardingFlow: View {
    @State private var path = NavigationPath()

    var body: some View {
        NavigationStack(path: $path) {
            Button("Start") { path.append(1) }
                .navigationDestination(for: Int.self) { step in
                    VStack {
                        Text("Step \(step)")
                        if step < 3 {
                            Button("Next") { path.append(step + 1) }
                        } else {
                            Button("Finish") {
                                path.popToRoot()
                            }
                        }
                    }
                }
        }
    }
}
