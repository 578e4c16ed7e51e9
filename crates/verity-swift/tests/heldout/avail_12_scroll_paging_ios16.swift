import SwiftUI

struct FeaturedCarousel: View {
    let titles = ["Summer", "Road trips", "City breaks", "Mountains"]

    var body: some View {
        ScrollView(.horizontal) {
            LazyHStack(spacing: 12) {
                ForEach(titles, id: \.self) { title in
                    RoundedRectangle(cornerRadius: 20)
                        .fill(.blue.gradient)
                        .overlay(alignment: .bottomLeading) {
                            Text(title)
                                .font(.title2.bold())
                                .foregroundStyle(.white)
                                .padding()
                        }
                        .frame(width: 300, height: 180)
                }
            }
            .scrollTargetLayout()
        }
        .scrollIndicators(.hidden)
        .scrollTargetBehavior(.viewAligned)
        .contentMargins(.horizontal, 16)
    }
}
