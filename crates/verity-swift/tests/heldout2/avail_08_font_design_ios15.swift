import SwiftUI

struct ScoreBadge: View {
    let score: Int

    var body: some View {
        Text("\(score)")
            .font(.title)
            .fontDesign(.rounded)
            .padding(12)
            .background(Color.yellow, in: Circle())
    }
}
