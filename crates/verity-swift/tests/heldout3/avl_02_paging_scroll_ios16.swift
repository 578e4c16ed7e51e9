import SwiftUI

struct OnboardingPager: View {
    let pages = ["Welcome", "Sync", "Share"]

    var body: some View {
        ScrollView(.horizontal) {
            LazyHStack(spacing: 0) {
                ForEach(pages, id: \.self) { page in
                    Text(page)
                        .font(.title)
                        .frame(width: 320, height: 480)
                }
            }
        }
        .scrollTargetBehavior(.paging)
    }
}
