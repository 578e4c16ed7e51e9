import SwiftUI

struct ExpandingRow: View {
    @State private var expanded = false

    var body: some View {
        VStack(alignment: .leading) {
            Button(expanded ? "Less" : "More") { expanded.toggle() }
            if expanded {
                Text("Details appear here with a fade.")
                    .transition(.opacity)
            }
        }
        .animation(.easeInOut)
    }
}
