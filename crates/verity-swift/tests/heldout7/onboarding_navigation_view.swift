import SwiftUI

struct OnboardingStep: Identifiable {
    let id = UUID()
    let symbol: String
    let title: String
    let detail: String
}

struct OnboardingView: View {
    let steps: [OnboardingStep]

    var body: some View {
        NavigationView {
            List(steps) { step in
                NavigationLink {
                    Text(step.detail).padding()
                } label: {
                    Label(step.title, systemImage: step.symbol)
                }
            }
            .navigationTitle("Welcome")
        }
    }
}
