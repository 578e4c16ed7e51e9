import MapKit

struct WalkEstimate {
    func describe(from start: MKMapItem, to end: MKMapItem) async -> String {
        let request = MKDirections.Request()
        request.source = start
        request.destination = end
        request.transportType = .walking
        guard let route = try? await MKDirections(request: request).calculate().routes.first else {
            return "No route"
        }
        let formatter = DateComponentsFormatter()
        formatter.allowedUnits = [.hour, .minute]
        formatter.unitsStyle = .abbreviated
        let time = formatter.string(from: route.expectedTravelTime) ?? "?"
        let distance = Measurement(value: route.distance, unit: UnitLength.meters)
        return "\(time), \(distance.formatted(.measurement(width: .abbreviated)))"
    }
}
