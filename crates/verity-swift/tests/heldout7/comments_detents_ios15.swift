import SwiftUI

struct PostView: View {
    let text: String
    @State private var showComments = false

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            Text(text)
            Button {
                showComments = true
            } label: {
                Label("Comments", systemImage: "bubble.left")
            }
        }
        .padding()
        .sheet(isPresented: $showComments) {
            List(0..<20, id: \.self) { index in
                Text("Comment #\(index + 1)")
            }
            .presentationDetents([.medium, .large])
        }
    }
}
