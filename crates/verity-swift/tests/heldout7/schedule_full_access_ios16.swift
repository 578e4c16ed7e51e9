import EventKit

@MainActor
final class ScheduleImporter: ObservableObject {
    @Published private(set) var events: [EKEvent] = []
    private let store = EKEventStore()

    func load(days: Int) async {
        do {
            guard try await store.requestFullAccessToEvents() else { return }
            let start = Date()
            let end = Calendar.current.date(byAdding: .day, value: days, to: start) ?? start
            let predicate = store.predicateForEvents(withStart: start, end: end, calendars: nil)
            events = store.events(matching: predicate)
        } catch {
            events = []
        }
    }
}
