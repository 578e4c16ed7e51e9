import SwiftUI
import Observation

@Observable
final class CounterModel {
    var value = 0
    func increment() { value += 1 }
}

struct CounterScreen: View {
    @State private var model = CounterModel()

    var body: some View {
        VStack(spacing: 16) {
            Text("\(model.value)").font(.largeTitle)
            Button("Add one") { model.increment() }
        }
    }
}
