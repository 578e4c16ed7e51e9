import SwiftUI
import MapKit

struct ParkingSpot: Identifiable {
    let id: Int
    let title: String
    let coordinate: CLLocationCoordinate2D
}

struct ParkingMap: View {
    let spots: [ParkingSpot]

    var body: some View {
        Map {
            ForEach(spots) { spot in
                Marker(spot.title, location: spot.coordinate)
                    .tint(.orange)
            }
        }
    }
}
