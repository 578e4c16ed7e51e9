import CoreImage
import CoreImage.CIFilterBuiltins
import UIKit

struct VintageFilter {
    private let context = CIContext(options: [.useSoftwareRenderer: false])

    func apply(to image: UIImage, intensity: Float) -> UIImage? {
        guard let input = CIImage(image: image) else { return nil }

        let sepia = CIFilter.sepiaTone()
        sepia.inputImage = input
        sepia.intensity = intensity

        let controls = CIFilter.colorControls()
        controls.inputImage = sepia.outputImage
        controls.saturation = 0.8
        controls.contrast = 1.1
        controls.brightness = 0.02

        guard let output = controls.outputImage?.cropped(to: input.extent),
              let cgImage = context.createCGImage(output, from: output.extent) else { return nil }
        return UIImage(cgImage: cgImage, scale: image.scale, orientation: image.imageOrientation)
    }
}
