import SwiftUI

final class ScoreBoard: ObservableObject {
    @Published var data: [Double] = []

    var sorted: [Double] { data.sorted(by: >) }

    func insert(_ score: Double) {
        data.append(score)
    }

    func delete(at index: Int) {
        data.remove(at: index)
    }

    func formatted() -> String {
        let average = data.isEmpty ? 0 : data.reduce(0, +) / Double(data.count)
        return average.formatted(.number.precision(.fractionLength(1)))
    }
}

struct ScoreBoardView: View {
    @StateObject private var board = ScoreBoard()

    var body: some View {
        VStack {
            Text("Average \(board.formatted())")
            ForEach(Array(board.sorted.enumerated()), id: \.offset) { pair in
                Text("\(pair.offset + 1). \(pair.element)")
            }
            Button("Add") { board.insert(Double.random(in: 0...10)) }
        }
    }
}
