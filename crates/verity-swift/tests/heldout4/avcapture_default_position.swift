import AVFoundation

final class SelfieCamera {
    let session = AVCaptureSession()

    func setUp() throws {
        guard let device = AVCaptureDevice.default(for: .video, position: .front) else { return }
        let input = try AVCaptureDeviceInput(device: device)
        session.beginConfiguration()
        if session.canAddInput(input) {
            session.addInput(input)
        }
        session.commitConfiguration()
    }
}
