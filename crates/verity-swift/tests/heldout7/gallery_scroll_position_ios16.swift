import SwiftUI

struct PhotoCarousel: View {
    let photos: [String]
    @State private var current: String?

    var body: some View {
        ScrollView(.horizontal) {
            LazyHStack(spacing: 0) {
                ForEach(photos, id: \.self) { name in
                    Image(name)
                        .resizable()
                        .scaledToFill()
                        .frame(width: 320, height: 240)
                        .clipped()
                }
            }
            .scrollTargetLayout()
        }
        .scrollPosition(id: $current)
        .onAppear { current = photos.first }
    }
}
