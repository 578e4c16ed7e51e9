import SwiftUI

struct SupportRow: View {
    @Environment(\.openURL) private var openURL
    let address = URL(string: "https://example.com/support")!

    var body: some View {
        HStack {
            Label("Help center", systemImage: "questionmark.circle")
            Spacer()
            Button {
                openURL.open(address)
            } label: {
                Image(systemName: "arrow.up.right.square")
            }
            .buttonStyle(.borderless)
        }
    }
}
