import CoreImage
import CoreImage.CIFilterBuiltins

func applyVintage(to image: CIImage) -> CIImage? {
    let filter = CIFilter.vintage()
    filter.setValue(image, forKey: kCIInputImageKey)
    return filter.outputImage
}
