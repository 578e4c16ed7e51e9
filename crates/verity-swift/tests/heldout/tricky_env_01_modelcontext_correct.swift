import SwiftUI
import SwiftData

@Model
final class Trip {
    var destination: String
    var startDate: Date
    @Relationship(deleteRule: .cascade) var stops: [Stop] = []

    init(destination: String, startDate: Date) {
        self.destination = destination
        self.startDate = startDate
    }
}

@Model
final class Stop {
    var name: String
    var trip: Trip?

    init(name: String) {
        self.name = name
    }
}

struct TripsView: View {
    @Environment(\.modelContext) private var modelContext
    @Environment(\.dismiss) private var dismiss
    @Query(sort: \Trip.startDate) private var trips: [Trip]

    var body: some View {
        List {
            ForEach(trips) { trip in
                VStack(alignment: .leading) {
                    Text(trip.destination)
                    Text("\(trip.stops.count) stops")
                        .font(.caption)
                }
            }
            .onDelete { offsets in
                for offset in offsets {
                    modelContext.delete(trips[offset])
                }
            }
        }
        .toolbar {
            Button("Add") {
                let trip = Trip(destination: "Lisbon", startDate: .now)
                modelContext.insert(trip)
                trip.stops.append(Stop(name: "Alfama"))
                do {
                    try modelContext.save()
                } catch {
                    modelContext.rollback()
                }
            }
            Button("Done") { dismiss() }
        }
        .task {
            let descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)])
            let count = (try? modelContext.fetchCount(descriptor)) ?? 0
            print("trips: \(count)")
        }
    }
}
