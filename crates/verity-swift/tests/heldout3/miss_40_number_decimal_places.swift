import SwiftUI

struct TemperatureLabel: View {
    let celsius: Double

    var body: some View {
        Text(celsius.formatted(.number.decimalPlaces(1)) + " °C")
            .monospacedDigit()
            .font(.title2)
    }
}
