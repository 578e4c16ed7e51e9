import EventKit

final class CalendarWriter {
    private let store = EKEventStore()

    func addWorkout(title: String, start: Date, minutes: Int) async throws -> String? {
        guard try await store.requestFullAccessToEvents() else { return nil }

        let event = EKEvent(eventStore: store)
        event.title = title
        event.startDate = start
        event.endDate = start.addingTimeInterval(TimeInterval(minutes * 60))
        event.calendar = store.defaultCalendarForNewEvents
        event.addAlarm(EKAlarm(relativeOffset: -15 * 60))
        try store.save(event, span: .thisEvent)
        return event.eventIdentifier
    }

    func upcoming(days: Int) -> [EKEvent] {
        let end = Calendar.current.date(byAdding: .day, value: days, to: .now) ?? .now
        let predicate = store.predicateForEvents(withStart: .now, end: end, calendars: nil)
        return store.events(matching: predicate).sorted { $0.startDate < $1.startDate }
    }
}
