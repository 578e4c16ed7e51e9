import SwiftUI

struct TallyCounter: View {
    @State private var count = 0

    var body: some View {
        VStack(spacing: 24) {
            Text("\(count)")
                .font(.system(size: 72, weight: .bold, design: .rounded))
                .monospacedDigit()
            HStack(spacing: 40) {
                Button("−") { count = max(0, count - 1) }
                Button("+") { count += 1 }
            }
            .font(.largeTitle)
            .buttonStyle(.bordered)
        }
        .sensoryFeedback(.increase, trigger: count)
    }
}
