import SwiftUI

struct ScoreBadge: View {
    let score: Int

    var body: some View {
        Text("\(score)")
            .font(.system(size: 28, weight: .heavy, design: .round))
            .padding(12)
            .background(Circle().fill(.yellow))
    }
}
