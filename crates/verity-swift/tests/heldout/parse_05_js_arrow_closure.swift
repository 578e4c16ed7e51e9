import SwiftUI

struct CounterView: View {
    @State private var count = 0

    var body: some View {
        VStack(spacing: 12) {
            Text("Count: \(count)")
                .font(.title)
            Button("Increment") { count += 1 }
            Button("Reset", action: () => count = 0)
        }
        .padding()
    }
}

struct CounterScreen: View {
    var body: some View {
        NavigationStack {
            CounterView()
                .navigationTitle("Counter")
        }
    }
}
