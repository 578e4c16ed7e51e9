import SwiftUI

struct FeaturedCarousel: View {
    let titles: [String]

    var body: some View {
        ScrollView(.horizontal, showsIndicators: false) {
            HStack(spacing: 12) {
                ForEach(titles, id: \.self) { title in
                    RoundedRectangle(cornerRadius: 16)
                        .fill(.teal.gradient)
                        .overlay { Text(title).foregroundStyle(.white) }
                        .containerRelativeFrame(.horizontal)
                        .frame(height: 180)
                }
            }
        }
    }
}
