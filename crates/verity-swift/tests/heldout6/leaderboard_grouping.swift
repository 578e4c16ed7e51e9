import Foundation

struct Score: Identifiable {
    let id = UUID()
    let player: String
    let points: Int
    let level: Int
}

struct Leaderboard {
    let scores: [Score]

    var bestPerPlayer: [String: Int] {
        Dictionary(grouping: scores, by: \.player)
            .mapValues { $0.map(\.points).max() ?? 0 }
    }

    var totalsByLevel: [Int: Int] {
        scores.reduce(into: [:]) { totals, score in
            totals[score.level, default: 0] += score.points
        }
    }

    var top3: [Score] {
        Array(scores.sorted { $0.points > $1.points }.prefix(3))
    }

    var average: Double {
        guard !scores.isEmpty else { return 0 }
        return Double(scores.map(\.points).reduce(0, +)) / Double(scores.count)
    }

    var firstLevelTen: Score? {
        scores.first { $0.level >= 10 }
    }
}
