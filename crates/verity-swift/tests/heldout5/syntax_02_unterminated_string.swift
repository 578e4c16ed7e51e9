import SwiftUI

struct WelcomeHeader: View {
    let name: String

    var body: some View {
        VStack(alignment: .leading) {
            Text("Welcome back, \(name))
                .font(.largeTitle.bold())
            Text("Here's what happened while you were away.")
                .foregroundStyle(.secondary)
        }
        .padding()
    }
}
