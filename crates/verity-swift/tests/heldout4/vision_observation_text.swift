import Vision
import CoreGraphics

func firstLine(of image: CGImage) throws -> String? {
    let request = VNRecognizeTextRequest()
    request.recognitionLevel = .fast
    let handler = VNImageRequestHandler(cgImage: image, options: [:])
    try handler.perform([request])
    guard let results = request.results else { return nil }
    return results.first?.text
}
