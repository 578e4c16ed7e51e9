import SwiftUI

struct Profile: View {
    var body: some View {
        VStack {
            AsyncImage(url: URL(string: "https://example.com/a.png")) { image in
                image.resizable()
            } placeholder: {
                ProgressView()
            }
            .frame(width: 80, height: 80)
            Text("Jane")
                .font(.headline)
                .lineLimit(1, reservesSpace: true)
                .truncationStyle(.middle)
        }
    }
}
