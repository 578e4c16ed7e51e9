import SwiftUI

struct Trip: Identifiable {
    let id = UUID()
    let destination: String
    let departure: Date
    let returnDate: Date
}

struct TripSummaryView: View {
    let trip: Trip

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            Text(trip.destination).font(.title2.bold())
            Text("\(trip.departure.formatted(date: .abbreviated, time: .omitted)) – \(trip.returnDate.formatted(date: .long, time: .omitted))")
            Text("Leaves at \(trip.departure.formatted(date: .omitted, time: .shortened))")
            Text(trip.departure.formatted(.relative(presentation: .named)))
                .foregroundStyle(.secondary)
            Text(trip.departure, style: .relative)
                .font(.caption)
        }
    }
}
