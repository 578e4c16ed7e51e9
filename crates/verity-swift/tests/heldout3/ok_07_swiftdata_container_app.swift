import SwiftUI
import SwiftData

@Model
final class Plant {
    @Attribute(.unique) var name: String
    var wateredAt: Date?
    var intervalDays: Int

    init(name: String, intervalDays: Int = 7) {
        self.name = name
        self.intervalDays = intervalDays
    }
}

@main
struct GardenApp: App {
    var body: some Scene {
        WindowGroup {
            PlantList()
        }
        .modelContainer(for: Plant.self)
    }
}

struct PlantList: View {
    @Query(sort: \Plant.name) private var plants: [Plant]
    @Environment(\.modelContext) private var context

    var body: some View {
        List(plants) { plant in
            Button(plant.name) {
                plant.wateredAt = .now
                try? context.save()
            }
        }
    }
}
