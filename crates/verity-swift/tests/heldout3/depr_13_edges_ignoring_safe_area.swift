import SwiftUI

struct SplashScreen: View {
    var body: some View {
        ZStack {
            LinearGradient(colors: [.indigo, .purple], startPoint: .top, endPoint: .bottom)
                .edgesIgnoringSafeArea(.all)
            Image(systemName: "sparkles")
                .font(.system(size: 64))
                .foregroundStyle(.white)
        }
    }
}
