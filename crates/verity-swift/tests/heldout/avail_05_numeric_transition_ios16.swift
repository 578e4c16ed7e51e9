import SwiftUI

struct ScoreBoard: View {
    @State private var home = 0
    @State private var away = 0

    var body: some View {
        VStack(spacing: 16) {
            HStack(spacing: 40) {
                score(home, label: "Home")
                score(away, label: "Away")
            }
            HStack {
                Button("Home +1") { withAnimation { home += 1 } }
                Button("Away +1") { withAnimation { away += 1 } }
            }
            .buttonStyle(.bordered)
        }
    }

    private func score(_ value: Int, label: String) -> some View {
        VStack {
            Text("\(value)")
                .font(.system(size: 56, weight: .bold, design: .rounded))
                .contentTransition(.numericText(value: Double(value)))
            Text(label)
                .font(.caption)
        }
    }
}
