import SwiftUI

struct TallyCounter: View {
    @State private var count = 0

    var body: some View {
        VStack(spacing: 20) {
            Text("\(count)")
                .font(.system(size: 64, weight: .bold, design: .rounded))
            Button("Count") { count += 1 }
                .buttonStyle(.borderedProminent)
                .sensoryFeedback(.tap, trigger: count)
        }
    }
}
