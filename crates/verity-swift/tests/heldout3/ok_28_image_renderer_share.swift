import SwiftUI

struct ScoreCard: View {
    let score: Int
    var body: some View {
        Text("Score \(score)")
            .font(.largeTitle.bold())
            .padding(40)
            .background(.yellow)
    }
}

struct ShareScore: View {
    let score: Int

    var body: some View {
        if let image = renderedImage {
            ShareLink(item: image, preview: SharePreview("My score", image: image))
        }
    }

    @MainActor private var renderedImage: Image? {
        let renderer = ImageRenderer(content: ScoreCard(score: score))
        renderer.scale = 3
        guard let uiImage = renderer.uiImage else { return nil }
        return Image(uiImage: uiImage)
    }
}
