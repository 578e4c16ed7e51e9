import SwiftUI

struct SplashView: View {
    @State private var pulse = false

    var body: some View {
        ZStack {
            LinearGradient(colors: [.indigo, .purple], startPoint: .top, endPoint: .bottom)
                .edgesIgnoringSafeArea(.all)
            VStack(spacing: 12) {
                Image(systemName: "sparkles")
                    .font(.system(size: 64))
                    .scaleEffect(pulse ? 1.1 : 0.9)
                Text("Lumen")
                    .font(.largeTitle.weight(.black))
            }
            .foregroundStyle(.white)
        }
        .onAppear {
            withAnimation(.easeInOut(duration: 0.8).repeatForever()) {
                pulse = true
            }
        }
    }
}
