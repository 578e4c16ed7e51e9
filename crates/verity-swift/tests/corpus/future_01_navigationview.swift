import SwiftUI

struct OldNav: View {
    var body: some View {
        NavigationView {
            Text("Hello")
                .foregroundColor(.red)
                .navigationBarTitle("Old")
        }
    }
}
