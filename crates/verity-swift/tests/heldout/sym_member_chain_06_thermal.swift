import Foundation

@MainActor
final class PerformanceGovernor {
    private(set) var reducedQuality = false

    func evaluate() {
        let info = ProcessInfo.processInfo
        let hot = info.thermalLevel == .serious || info.thermalLevel == .critical
        reducedQuality = hot || info.isLowPowerModeEnabled
    }

    func startObserving() {
        NotificationCenter.default.addObserver(
            forName: ProcessInfo.thermalStateDidChangeNotification,
            object: nil,
            queue: .main
        ) { [weak self] _ in
            MainActor.assumeIsolated {
                self?.evaluate()
            }
        }
    }
}
