import SwiftUI

struct CounterStepper: View {
    @State private var count = 0
    let range = 0...10

    var body: some View {
        HStack(spacing: 24) {
            Button {
                if count > range.lowerBound { count -= 1 }
            } label: {
                Image(systemName: "minus.circle.fill")
            }
            Text("\(count)")
                .font(.title.monospacedDigit())
                .frame(minWidth: 40)
            Button {
                if count < range.upperBound { count += 1 }
            } label: {
                Image(systemName: "plus.circle.fill")
            }
        }
        .font(.largeTitle)
        .sensoryFeedback(.increase, trigger: count)
    }
}
