import AVFoundation

final class BarcodeScanner: NSObject {
    let session = AVCaptureSession()
    private let metadataOutput = AVCaptureMetadataOutput()

    func configure() throws {
        guard let device = AVCaptureDevice.default(for: .video) else { return }
        let input = try AVCaptureDeviceInput(device: device)
        session.beginConfiguration()
        if session.canAdd(input) {
            session.addInput(input)
        }
        if session.canAddOutput(metadataOutput) {
            session.addOutput(metadataOutput)
            metadataOutput.metadataObjectTypes = [.qr, .ean13]
        }
        session.commitConfiguration()
    }
}
