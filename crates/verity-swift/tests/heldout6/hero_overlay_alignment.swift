import SwiftUI

struct HeroBanner: View {
    let title: String
    let subtitle: String

    var body: some View {
        Image("banner")
            .resizable()
            .aspectRatio(16 / 9, contentMode: .fill)
            .frame(height: 220)
            .clipped()
            .overlay {
                LinearGradient(colors: [.clear, .black.opacity(0.7)], startPoint: .top, endPoint: .bottom)
            }
            .overlay(
                VStack(alignment: .leading) {
                    Text(title).font(.largeTitle.bold())
                    Text(subtitle).font(.headline)
                }
                .foregroundStyle(.white)
                .padding(),
                alignment: .bottomLeading
            )
    }
}
