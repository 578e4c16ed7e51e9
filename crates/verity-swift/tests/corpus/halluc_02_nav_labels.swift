import SwiftUI

struct ListScreen: View {
    var body: some View {
        NavigationStack {
            List(0..<10, id: \.self) { i in
                NavigationLink("Row \(i)", value: i)
            }
            .navigationDestination(for: Int.self, content: { i in
                Text("Detail \(i)")
            })
        }
    }
}
