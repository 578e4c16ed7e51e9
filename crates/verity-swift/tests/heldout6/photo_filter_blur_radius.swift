import CoreImage
import CoreImage.CIFilterBuiltins
import UIKit

struct PhotoEffects {
    private let context = CIContext()

    func blurred(_ image: UIImage, amount: Float) -> UIImage? {
        guard let input = CIImage(image: image) else { return nil }
        let filter = CIFilter.gaussianBlur()
        filter.inputImage = input
        filter.blurRadius = amount
        guard let output = filter.outputImage,
              let cgImage = context.createCGImage(output, from: input.extent) else { return nil }
        return UIImage(cgImage: cgImage)
    }
}
