import AVFoundation

final class CameraController {
    let session = AVCaptureSession()

    func configure() async throws {
        guard await AVCaptureDevice.requestAccess(for: .video) else { return }
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else { return }
        let input = try AVCaptureDeviceInput(device: camera)
        let output = AVCapturePhotoOutput()

        session.beginConfiguration()
        session.sessionPreset = .photo
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(output) { session.addOutput(output) }
        session.commitConfiguration()

        try camera.lockForConfiguration()
        if camera.isFocusModeSupported(.continuousAutoFocus) {
            camera.focusMode = .continuousAutoFocus
        }
        camera.unlockForConfiguration()
    }
}
