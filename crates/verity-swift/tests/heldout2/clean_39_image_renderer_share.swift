import SwiftUI
import UIKit

struct Badge: View {
    let text: String
    var body: some View {
        Text(text)
            .padding()
            .background(.orange, in: Capsule())
    }
}

@MainActor
enum Exporter {
    static func badgeImage(_ text: String) -> UIImage? {
        let renderer = ImageRenderer(content: Badge(text: text))
        renderer.scale = 3
        return renderer.uiImage
    }

    static func placeholder(size: CGSize) -> UIImage {
        UIGraphicsImageRenderer(size: size).image { context in
            UIColor.systemGray5.setFill()
            context.fill(CGRect(origin: .zero, size: size))
        }
    }

    static func share(_ image: UIImage, from controller: UIViewController) {
        let activity = UIActivityViewController(activityItems: [image], applicationActivities: nil)
        controller.present(activity, animated: true)
    }
}
