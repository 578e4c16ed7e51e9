import SwiftUI

struct RatingRow: View {
    @Binding var rating: Int
    var maximum = 5

    var body: some View {
        HStack(spacing: 4) {
            ForEach(1...maximum, id: \.self) { value in
                Image(systemImage: value <= rating ? "star.fill" : "star")
                    .foregroundStyle(.yellow)
                    .onTapGesture { rating = value }
            }
        }
        .accessibilityElement(children: .ignore)
        .accessibilityValue("\(rating) of \(maximum)")
    }
}
