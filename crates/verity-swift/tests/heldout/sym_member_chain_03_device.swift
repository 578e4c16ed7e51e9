import UIKit

struct DeviceInfo: Codable {
    let systemName: String
    let systemVersion: String
    let model: String
    let vendorID: String?
    let batteryLevel: Float

    @MainActor
    static func current() -> DeviceInfo {
        let device = UIDevice.current
        device.isBatteryMonitoringEnabled = true
        return DeviceInfo(
            systemName: device.systemName,
            systemVersion: device.systemVersion,
            model: UIDevice.current.modelIdentifier,
            vendorID: device.identifierForVendor?.uuidString,
            batteryLevel: device.batteryLevel
        )
    }
}
