import SwiftUI
import SwiftData

@Model
final class Trip {
    var destination: String
    var startDate: Date
    var notes: String

    init(destination: String, startDate: Date, notes: String = "") {
        self.destination = destination
        self.startDate = startDate
        self.notes = notes
    }
}

struct TripListView: View {
    @Environment(\.modelContext) private var context
    @Query(sort: \Trip.startDate, order: .reverse) private var trips: [Trip]

    var body: some View {
        List {
            ForEach(trips) { trip in
                VStack(alignment: .leading) {
                    Text(trip.destination).font(.headline)
                    Text(trip.startDate, style: .date).font(.caption)
                }
            }
            .onDelete { offsets in
                for index in offsets {
                    context.delete(trips[index])
                }
                try? context.save()
            }
        }
        .toolbar {
            Button("Add", systemImage: "plus") {
                context.insert(Trip(destination: "Lisbon", startDate: .now))
            }
        }
    }
}
