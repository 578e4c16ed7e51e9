import SwiftUI

struct ScoreBoard: View {
    let scores: [String: Int]

    var body: some View {
        let title = "Leaderboard"
        let count = scores.count
        let sorted = scores.sorted { $0.value > $1.value }
        let first = sorted.first

        return VStack(spacing: 8) {
            Text(title).font(.title2.bold())
            Text("\(count) players")
            if let first {
                Text("Leader: \(first.key) with \(first.value)")
            }
            ForEach(sorted, id: \.key) { entry in
                let description = "\(entry.key): \(entry.value)"
                Text(description)
            }
        }
    }

    func reload(body: String, padding: Int) -> String {
        let frame = padding * 2
        return body + String(repeating: " ", count: frame)
    }
}
