import SwiftUI

struct FeedList: View {
    @State private var items: [String] = ["First"]

    var body: some View {
        List(items, id: \.self) { Text($0) }
            .refreshable {
                items.insert("Item \(items.count + 1)", at: 0)
            }
    }
}
