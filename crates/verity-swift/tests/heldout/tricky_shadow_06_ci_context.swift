import UIKit
import CoreImage
import CoreImage.CIFilterBuiltins

struct ImageFilters {
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

    func blur(_ image: UIImage, radius: Float = 8) -> UIImage? {
        guard let input = CIImage(image: image) else { return nil }
        let filter = CIFilter.gaussianBlur()
        filter.inputImage = input
        filter.radius = radius
        guard let output = filter.outputImage?.cropped(to: input.extent),
              let cgImage = context.createCGImage(output, from: output.extent) else {
            return nil
        }
        return UIImage(cgImage: cgImage)
    }
}
