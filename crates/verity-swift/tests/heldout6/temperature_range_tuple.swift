import Foundation

struct Forecast {
    let hourly: [Double]

    func range() -> (low: Double, high: Double)? {
        guard let low = hourly.min(), let high = hourly.max() else { return nil }
        return (low, high)
    }

    func summary() -> String {
        guard let span = range() else { return "No data" }
        let style = Measurement<UnitTemperature>.FormatStyle(width: .narrow)
        let low = Measurement(value: span.low, unit: UnitTemperature.celsius).formatted(style)
        let high = Measurement(value: span.high, unit: UnitTemperature.celsius).formatted(style)
        let (minIndex, maxIndex) = (hourly.firstIndex(of: span.low) ?? 0, hourly.firstIndex(of: span.high) ?? 0)
        return "\(low)–\(high) (coldest at \(minIndex):00, warmest at \(maxIndex):00)"
    }
}
