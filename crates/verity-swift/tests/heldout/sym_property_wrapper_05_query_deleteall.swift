import SwiftUI
import SwiftData

@Model
final class Reading {
    var value: Double
    var takenAt: Date

    init(value: Double, takenAt: Date = .now) {
        self.value = value
        self.takenAt = takenAt
    }
}

struct ReadingsView: View {
    @Environment(\.modelContext) private var modelContext
    @Query(sort: \Reading.takenAt) private var readings: [Reading]
    @State private var confirmClear = false

    var body: some View {
        List(readings) { reading in
            LabeledContent(reading.takenAt.formatted(date: .abbreviated, time: .shortened),
                           value: reading.value, format: .number.precision(.fractionLength(1)))
        }
        .toolbar {
            Button("Clear", role: .destructive) { confirmClear = true }
        }
        .confirmationDialog("Delete all readings?", isPresented: $confirmClear) {
            Button("Delete all", role: .destructive) {
                try? modelContext.deleteAll(Reading.self)
            }
        }
    }
}
