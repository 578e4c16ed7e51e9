import SwiftUI

struct ParallaxHeader: View {
    let imageName: String
    var height: CGFloat = 280

    var body: some View {
        GeometryReader { proxy in
            let minY = proxy.frame(in: .global).minY
            let stretch = max(0, minY)
            Image(imageName)
                .resizable()
                .scaledToFill()
                .frame(width: proxy.size.width, height: height + stretch)
                .offset(y: -stretch)
                .clipped()
                .overlay(alignment: .bottomLeading) {
                    Text("Top: \(Int(proxy.safeAreaInsets.top))")
                        .font(.caption)
                        .padding(8)
                        .background(.ultraThinMaterial, in: Capsule())
                        .padding()
                }
        }
        .frame(height: height)
    }
}

struct ParallaxScreen: View {
    var body: some View {
        ScrollView {
            ParallaxHeader(imageName: "mountains")
            LazyVStack(alignment: .leading, spacing: 12) {
                ForEach(1..<30) { index in
                    Text("Paragraph \(index)")
                }
            }
            .padding()
        }
        .ignoresSafeArea(edges: .top)
    }
}
