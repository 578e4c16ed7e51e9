import UIKit

final class BatteryMonitor {
    init() {
        UIDevice.current.isBatteryMonitoringEnabled = true
    }

    var summary: String {
        let percent = Int(UIDevice.current.batteryPercentage)
        switch UIDevice.current.batteryState {
        case .charging, .full:
            return "Charging (\(percent)%)"
        case .unplugged:
            return "\(percent)% remaining"
        default:
            return "Unknown"
        }
    }
}
