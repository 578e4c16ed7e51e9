import SwiftUI
import Observation

@Observable
final class CounterModel {
    var count = 0
    var history: [Int] = []

    func increment() {
        count += 1
        history.append(count)
    }
}

struct CounterView: View {
    @State private var model = CounterModel()

    var body: some View {
        VStack(spacing: 16) {
            Text("Count: \(model.count)")
                .font(.largeTitle)
                .fontWeight(.bold)
                .foregroundStyle(.blue)
            Button("Increment") {
                withAnimation(.spring(duration: 0.3)) {
                    model.increment()
                }
            }
            .buttonStyle(.borderedProminent)
            .sensoryFeedback(.increase, trigger: model.count)
        }
        .padding()
        .onChange(of: model.count) { oldValue, newValue in
            print("changed from \(oldValue) to \(newValue)")
        }
    }
}
