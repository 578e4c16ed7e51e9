import CoreLocation
import MapKit
import SwiftUI

@Observable
final class LocationModel: NSObject, CLLocationManagerDelegate {
    private let manager = CLLocationManager()
    var last: CLLocation?

    override init() {
        super.init()
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyBest
        manager.requestWhenInUseAuthorization()
        manager.startUpdatingLocation()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        last = locations.last
    }
}

struct MapScreen: View {
    @State private var position: MapCameraPosition = .automatic
    var body: some View {
        Map(position: $position) {
            Marker("Cupertino", coordinate: CLLocationCoordinate2D(latitude: 37.33, longitude: -122.01))
        }
        .mapStyle(.standard(elevation: .realistic))
    }
}
