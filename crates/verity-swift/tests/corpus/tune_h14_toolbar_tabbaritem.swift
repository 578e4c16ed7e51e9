import SwiftUI

struct PlayerScreen: View {
    var body: some View {
        VStack {
            Spacer()
            Text("Now playing")
            Spacer()
        }
        .toolbar(.hidden, for: .navigationBar, .tabBarItem)
    }
}
