import SwiftUI

struct Forecast: Decodable, Identifiable {
    let id: Int
    let day: String
    let high: Double
    let low: Double
}

@MainActor
final class ForecastModel: ObservableObject {
    @Published private(set) var days: [Forecast] = []
    @Published private(set) var failed = false

    func load() async {
        do {
            let url = URL(string: "https://api.example.com/forecast")!
            let (data, _) = try await URLSession.shared.data(from: url)
            days = try JSONDecoder().decode([Forecast].self, from: data)
            failed = false
        } catch {
            failed = true
        }
    }
}

struct ForecastList: View {
    @StateObject private var model = ForecastModel()

    var body: some View {
        List(model.days) { day in
            HStack {
                Text(day.day)
                Spacer()
                Text("\(Int(day.low))° / \(Int(day.high))°")
                    .monospacedDigit()
            }
        }
        .overlay {
            if model.failed {
                Text("Could not load the forecast")
            }
        }
        .task { await model.load() }
        .refreshable { await model.load() }
    }
}
