import Foundation

enum TemperatureScale {
    case celsius
    case fahrenheit
}

func format(_ celsius: Double, in scale: TemperatureScale) -> String {
    switch scale {
    case .celsius:
        return celsius.formatted(.number.precision(.fractionLength(1))) + " °C"
    case .fahrenheit return (celsius * 9 / 5 + 32).formatted() + " °F"
    }
}
