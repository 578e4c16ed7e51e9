import AVFoundation

final class Shutter: NSObject, AVCapturePhotoCaptureDelegate {
    private let output = AVCapturePhotoOutput()

    func shoot() {
        let settings = AVCapturePhotoSettings()
        settings.flashMode = .auto
        settings.isHighResolutionEnabled = true
        output.capturePhoto(with: settings, delegate: self)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        guard error == nil, let data = photo.fileDataRepresentation() else { return }
        print("captured \(data.count) bytes")
    }
}
