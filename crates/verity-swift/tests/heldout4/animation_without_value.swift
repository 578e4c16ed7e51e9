import SwiftUI

struct ExpandableRow: View {
    let title: String
    let detail: String
    @State private var expanded = false

    var body: some View {
        VStack(alignment: .leading) {
            Button(title) { expanded.toggle() }
            if expanded {
                Text(detail)
                    .transition(.opacity)
            }
        }
        .animation(.easeInOut(duration: 0.3))
    }
}
