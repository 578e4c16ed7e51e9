import SwiftUI

struct Feed: View {
    @State private var items: [String] = []

    var body: some View {
        List(items, id: \.self) { Text($0) }
            .onAppearAsync {
                items = ["a", "b"]
            }
    }
}
