import CoreMotion
import Observation

@Observable
final class SpiritLevel {
    private let manager = CMMotionManager()
    var angle: Double = 0

    func start() {
        guard manager.isDeviceMotionAvailable else { return }
        manager.deviceMotionUpdateInterval = 1.0 / 30.0
        manager.startDeviceMotionUpdates(to: .main) { [weak self] motion, error in
            guard let motion, error == nil else { return }
            self?.angle = motion.attitude.tilt * 180 / .pi
        }
    }

    func stop() {
        manager.stopDeviceMotionUpdates()
    }
}
