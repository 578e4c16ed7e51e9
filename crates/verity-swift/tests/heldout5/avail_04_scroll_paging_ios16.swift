import SwiftUI

struct OnboardingCarousel: View {
    let pages: [String]

    var body: some View {
        ScrollView(.horizontal, showsIndicators: false) {
            HStack(spacing: 0) {
                ForEach(pages, id: \.self) { page in
                    Text(page)
                        .font(.title)
                        .frame(width: 320, height: 400)
                        .background(.blue.opacity(0.1))
                }
            }
        }
        .scrollTargetBehavior(.paging)
    }
}
