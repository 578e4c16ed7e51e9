import SwiftUI

struct OnboardingPage: Identifiable {
    let id = UUID()
    let title: String
    let symbol: String
}

struct OnboardingCarousel: View {
    let pages: [OnboardingPage]

    var body: some View {
        ScrollView(.horizontal) {
            LazyHStack(spacing: 0) {
                ForEach(pages) { page in
                    VStack(spacing: 24) {
                        Image(systemName: page.symbol).font(.system(size: 80))
                        Text(page.title).font(.title.bold())
                    }
                    .frame(width: 390)
                }
            }
        }
        .scrollIndicators(.hidden)
        .scrollTargetBehavior(.paging)
    }
}
