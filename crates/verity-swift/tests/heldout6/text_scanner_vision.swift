import Vision
import UIKit

enum TextScanner {
    static func recognize(in image: UIImage) throws -> [String] {
        guard let cgImage = image.cgImage else { return [] }
        var lines: [String] = []
        let request = VNRecognizeTextRequest { request, _ in
            let observations = request.results as? [VNRecognizedTextObservation] ?? []
            lines = observations.compactMap { $0.topCandidates(1).first?.string }
        }
        request.recognitionLevel = .accurate
        request.usesLanguageCorrection = true
        request.recognitionLanguages = ["en-US", "de-DE"]
        let handler = VNImageRequestHandler(cgImage: cgImage)
        try handler.perform([request])
        return lines
    }
}
