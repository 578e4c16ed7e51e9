import UIKit

enum ImageInspector {
    static func aspectRatio(of image: UIImage) -> CGFloat {
        guard let cgImage = image.cgImage else { return 1 }
        return CGFloat(cgImage.width) / CGFloat(max(cgImage.height, 1))
    }

    static func isPanorama(_ image: UIImage) -> Bool {
        let pixelWidth = image.cgImage?.size.width ?? image.size.width
        return pixelWidth > image.size.height * 3
    }

    static func megapixels(_ image: UIImage) -> Double {
        guard let cgImage = image.cgImage else { return 0 }
        return Double(cgImage.width * cgImage.height) / 1_000_000
    }
}
