struct Score {
    let player: String
    let points: Int
    let level: Int?
}

struct Leaderboard {
    var scores: [Score]

    var top10: [Score] {
        Array(scores.sorted { $0.points > $1.points }.prefix(10))
    }

    var levels: [Int] {
        Array(Set(scores.compactMap(\.level))).sorted()
    }

    var totals: [String: Int] {
        scores.reduce(into: [:]) { totals, score in
            totals[score.player, default: 0] += score.points
        }
    }

    var bestPerLevel: [Int: Score] {
        Dictionary(grouping: scores.filter { $0.level != nil }) { $0.level! }
            .compactMapValues { $0.max { $0.points < $1.points } }
    }

    func rank(of player: String) -> Int? {
        guard scores.contains(where: { $0.player == player }) else { return nil }
        return top10.firstIndex { $0.player == player }.map { $0 + 1 }
    }

    var everyoneScored: Bool { scores.allSatisfy { $0.points > 0 } }
}
