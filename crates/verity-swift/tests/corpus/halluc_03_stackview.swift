import SwiftUI

struct Home: View {
    var body: some View {
        NavigationStackView {
            Text("Hello")
                .navigationTitle("Home")
        }
    }
}
