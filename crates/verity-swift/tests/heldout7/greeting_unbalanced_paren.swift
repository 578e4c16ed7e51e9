import SwiftUI

struct GreetingView: View {
    let name: String

    var body: some View {
        VStack {
            Text("Hello, \(name)!"
                .font(.title)
            Text("Welcome back")
        }
    }
}
