import AVFoundation
import CoreLocation

struct TripAnnouncer {
    private let synthesizer = AVSpeechSynthesizer()
    private let geocoder = CLGeocoder()

    func announce(_ location: CLLocation) async {
        let placemark = try? await geocoder.reverseGeocodeLocation(location).first
        let city = placemark?.locality ?? "an unknown place"
        let region = placemark?.administrativeArea ?? ""
        let utterance = AVSpeechUtterance(string: "You have arrived in \(city) \(region)")
        utterance.rate = AVSpeechUtteranceDefaultSpeechRate * 0.9
        utterance.voice = AVSpeechSynthesisVoice(language: "en-GB")
        synthesizer.speak(utterance)
    }
}
