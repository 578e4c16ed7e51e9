import CoreImage
import UIKit

struct BackgroundBlurrer {
    private let context = CIContext()

    func blurredBackground(from image: UIImage) -> UIImage? {
        guard let input = CIImage(image: image) else { return nil }
        let blurred = input
            .clampedToExtent()
            .blurred(radius: 12)
            .cropped(to: input.extent)
        guard let cgImage = context.createCGImage(blurred, from: input.extent) else {
            return nil
        }
        return UIImage(cgImage: cgImage, scale: image.scale, orientation: image.imageOrientation)
    }
}
