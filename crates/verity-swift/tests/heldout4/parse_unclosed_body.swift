import SwiftUI

struct GreetingCard: View {
    let name: String

    var body: some View {
        VStack {
            Text("Hello, \(name)!")
                .font(.largeTitle)
            Text("Have a great day.")
        }
