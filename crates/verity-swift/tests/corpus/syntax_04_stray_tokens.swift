import SwiftUI

struct Row: View {
    var body: some View {
        HStack {
            Text("A")
            ) Text("B")
        }
    }
}
