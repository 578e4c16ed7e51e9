import CoreMotion
import SwiftUI

@Observable
final class LevelModel {
    private let motion = CMMotionManager()
    var angle: Double = 0

    func start() {
        guard motion.isDeviceMotionAvailable else { return }
        motion.deviceMotionUpdateInterval = 1.0 / 30.0
        motion.startDeviceMotionUpdates(to: .main) { [weak self] data, _ in
            guard let data else { return }
            self?.angle = data.attitude.tilt * 180 / .pi
        }
    }

    func stop() {
        motion.stopDeviceMotionUpdates()
    }
}
