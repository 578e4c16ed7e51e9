import CoreImage
import CoreImage.CIFilterBuiltins
import UIKit

struct PhotoFilters {
    private let context = CIContext()

    func sepia(_ image: UIImage, intensity: Float = 0.8) -> UIImage? {
        guard let input = CIImage(image: image) else { return nil }
        let filter = CIFilter.sepiaTone()
        filter.inputImage = input
        filter.intensity = intensity
        guard let output = filter.outputImage,
              let cgImage = context.createCGImage(output, from: output.extent) else {
            return nil
        }
        return UIImage(cgImage: cgImage, scale: image.scale, orientation: image.imageOrientation)
    }
}
