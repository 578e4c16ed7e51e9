import SwiftUI

struct RatingBar: View {
    let rating: Double

    var body: some View {
        GeometryReader { geometry in
            ZStack(alignment: .leading) {
                Rectangle()
                    .fill(.gray.opacity(0.2))
                Rectangle()
                    .fill(.orange)
                    .frame(width: geometry.width * rating / 5)
            }
        }
        .frame(height: 6)
        .clipShape(Capsule())
    }
}
