import EventKit

actor CalendarSync {
    private let store = EKEventStore()

    func upcoming(days: Int) async throws -> [EKEvent] {
        guard try await store.requestFullAccessToEvents() else { return [] }
        let start = Date.now
        let end = Calendar.current.date(byAdding: .day, value: days, to: start) ?? start
        let predicate = store.predicateForEvents(withStart: start, end: end, calendars: nil)
        return store.events(matching: predicate).sorted { $0.startDate < $1.startDate }
    }
}
