import SwiftUI

struct CommentComposer: View {
    @State private var draft = ""
    let posted: Date

    private var postedParts: DateComponents {
        Calendar.current.dateComponents([.year, .month, .day, .hour], from: posted)
    }

    var body: some View {
        VStack {
            Spacer()
            Text("Day \(postedParts.day ?? 0)")
            TextField("Add a comment", text: $draft, axis: .vertical)
                .padding([.horizontal, .bottom])
                .textFieldStyle(.roundedBorder)
        }
        .ignoresSafeArea(.keyboard, edges: .bottom)
    }
}
