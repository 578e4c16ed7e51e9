import CoreMotion
import Observation

@Observable
final class StepTracker {
    private let pedometer = CMPedometer()
    var steps = 0
    var meters: Double = 0

    func start() {
        guard CMPedometer.isStepCountingAvailable() else { return }
        let midnight = Calendar.current.startOfDay(for: .now)
        pedometer.startUpdates(from: midnight) { [weak self] data, error in
            guard let data, error == nil else { return }
            DispatchQueue.main.async {
                self?.steps = data.numberOfSteps.intValue
                self?.meters = data.distance?.doubleValue ?? 0
            }
        }
    }

    func stop() {
        pedometer.stopUpdates()
    }
}
