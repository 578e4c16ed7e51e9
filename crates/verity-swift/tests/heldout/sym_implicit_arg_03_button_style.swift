import SwiftUI

struct OnboardingView: View {
    @State private var page = 0
    let pages = ["Track habits", "See your streaks", "Stay motivated"]
    var onFinish: () -> Void

    var body: some View {
        VStack(spacing: 24) {
            TabView(selection: $page) {
                ForEach(pages.indices, id: \.self) { index in
                    Text(pages[index])
                        .font(.largeTitle.bold())
                        .multilineTextAlignment(.center)
                        .tag(index)
                }
            }
            .tabViewStyle(.page)
            .indexViewStyle(.page(backgroundDisplayMode: .always))

            Button {
                if page < pages.count - 1 {
                    withAnimation { page += 1 }
                } else {
                    onFinish()
                }
            } label: {
                Text(page < pages.count - 1 ? "Next" : "Get started")
                    .frame(maxWidth: .infinity)
            }
            .buttonStyle(.elevated)
            .controlSize(.large)
            .padding(.horizontal)
        }
        .padding(.bottom, 32)
    }
}
