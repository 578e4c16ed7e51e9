import ActivityKit
import Foundation

struct DeliveryAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var status: String
        var eta: Date
    }
    var orderNumber: String
}

enum DeliveryActivity {
    static func start(order: String, eta: Date) throws -> Activity<DeliveryAttributes> {
        let attributes = DeliveryAttributes(orderNumber: order)
        let state = DeliveryAttributes.ContentState(status: "Preparing", eta: eta)
        return try Activity.request(attributes: attributes, contentState: state, pushType: nil)
    }
}
