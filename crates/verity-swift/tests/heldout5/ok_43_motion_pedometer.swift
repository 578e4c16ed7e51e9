import CoreMotion

final class ActivityMonitor {
    private let motion = CMMotionManager()
    private let pedometer = CMPedometer()
    private(set) var tilt: Double = 0
    private(set) var steps = 0

    func start() {
        if motion.isDeviceMotionAvailable {
            motion.deviceMotionUpdateInterval = 1.0 / 30.0
            motion.startDeviceMotionUpdates(to: .main) { [weak self] data, _ in
                guard let data else { return }
                self?.tilt = data.attitude.pitch
                let accel = data.userAcceleration
                if abs(accel.x) + abs(accel.y) + abs(accel.z) > 2.5 {
                    print("shake detected")
                }
            }
        }
        if CMPedometer.isStepCountingAvailable() {
            pedometer.startUpdates(from: Calendar.current.startOfDay(for: .now)) { [weak self] data, _ in
                self?.steps = data?.numberOfSteps.intValue ?? 0
            }
        }
    }

    func stop() {
        motion.stopDeviceMotionUpdates()
        pedometer.stopUpdates()
    }
}
