import SwiftUI
import Observation

@Observable
final class StepCounter {
    var steps = 0
    var goal = 10_000

    var progress: Double {
        Double(steps) / Double(goal)
    }

    func add(_ count: Int) {
        steps += count
    }
}

struct StepCounterView: View {
    @State private var counter = StepCounter()

    var body: some View {
        VStack(spacing: 16) {
            ProgressView(value: counter.progress)
            Text("\(counter.steps) steps")
            Button("Add 500") { counter.add(500) }
        }
        .padding()
    }
}
