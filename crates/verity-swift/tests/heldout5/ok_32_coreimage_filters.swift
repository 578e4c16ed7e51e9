import CoreImage
import CoreImage.CIFilterBuiltins
import UIKit

struct PhotoStylist {
    private let context = CIContext()

    func vintage(_ input: UIImage, intensity: Float) -> UIImage? {
        guard let ciImage = CIImage(image: input) else { return nil }

        let sepia = CIFilter.sepiaTone()
        sepia.inputImage = ciImage
        sepia.intensity = intensity

        let vignette = CIFilter.vignette()
        vignette.inputImage = sepia.outputImage
        vignette.intensity = 1.2
        vignette.radius = 2

        guard let output = vignette.outputImage,
              let cgImage = context.createCGImage(output, from: ciImage.extent) else { return nil }
        return UIImage(cgImage: cgImage, scale: input.scale, orientation: input.imageOrientation)
    }
}
