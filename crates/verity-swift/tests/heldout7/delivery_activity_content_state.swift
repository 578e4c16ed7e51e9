import ActivityKit
import Foundation

struct DeliveryAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var minutesRemaining: Int
        var courierName: String
    }
    var orderNumber: String
}

enum DeliveryActivityController {
    static func start(order: String) throws -> Activity<DeliveryAttributes> {
        let attributes = DeliveryAttributes(orderNumber: order)
        let state = DeliveryAttributes.ContentState(minutesRemaining: 25, courierName: "Sam")
        return try Activity<DeliveryAttributes>.request(attributes: attributes,
                                                        contentState: state,
                                                        pushType: nil)
    }
}
