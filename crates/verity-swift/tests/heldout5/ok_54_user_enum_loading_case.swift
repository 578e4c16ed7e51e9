import SwiftUI

enum FetchPhase<Value> {
    case loading
    case loaded(Value)
    case failed(message: String)
}

struct Forecast {
    let city: String
    let high: Int
    let isDark: Bool
}

struct ForecastCard: View {
    let phase: FetchPhase<Forecast>

    var body: some View {
        switch phase {
        case .loading:
            ProgressView("Loading forecast")
        case .loaded(let forecast):
            VStack {
                Text(forecast.city).font(.title2)
                Text("High \(forecast.high)°")
                    .foregroundStyle(forecast.isDark ? .white : .primary)
            }
        case .failed(let message):
            Label(message, systemImage: "cloud.slash")
        }
    }
}
