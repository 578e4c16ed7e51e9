import MapKit
import UIKit

final class StationsViewController: UIViewController, MKMapViewDelegate {
    private let mapView = MKMapView()

    override func viewDidLoad() {
        super.viewDidLoad()
        mapView.frame = view.bounds
        mapView.delegate = self
        mapView.register(MKMarkerAnnotationView.self, forAnnotationViewWithReuseIdentifier: MKMapViewDefaultAnnotationViewReuseIdentifier)
        view.addSubview(mapView)

        let station = MKPointAnnotation()
        station.title = "Central Station"
        station.coordinate = CLLocationCoordinate2D(latitude: 52.3791, longitude: 4.9003)
        mapView.addAnnotation(station)
        mapView.setRegion(MKCoordinateRegion(center: station.coordinate, latitudinalMeters: 2000, longitudinalMeters: 2000), animated: false)
    }

    func mapView(_ mapView: MKMapView, viewFor annotation: MKAnnotation) -> MKAnnotationView? {
        guard !(annotation is MKUserLocation) else { return nil }
        let view = mapView.dequeueReusableAnnotationView(withIdentifier: MKMapViewDefaultAnnotationViewReuseIdentifier, for: annotation)
        if let marker = view as? MKMarkerAnnotationView {
            marker.markerTintColor = .systemRed
            marker.glyphImage = UIImage(systemName: "tram.fill")
        }
        return view
    }
}
