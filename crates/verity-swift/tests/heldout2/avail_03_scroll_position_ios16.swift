import SwiftUI

struct ChatView: View {
    let messages: [String]
    @State private var visibleID: Int?

    var body: some View {
        ScrollView {
            LazyVStack(alignment: .leading, spacing: 8) {
                ForEach(messages.indices, id: \.self) { index in
                    Text(messages[index])
                        .padding(8)
                        .background(.blue.opacity(0.1), in: RoundedRectangle(cornerRadius: 8))
                        .id(index)
                }
            }
            .scrollTargetLayout()
        }
        .scrollPosition(id: $visibleID)
    }
}
