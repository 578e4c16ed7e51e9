import SwiftUI

struct Plain: View {
    var body: some View {
        NavigationStack {
            Text("Hello").navigationTitle("Plain")
        }
    }
}
