import EventKit

final class BirthdayCalendar {
    private let store = EKEventStore()

    func addBirthday(name: String, on date: Date) async throws {
        let granted = try await store.requestAccess(to: .event)
        guard granted else { return }
        let event = EKEvent(eventStore: store)
        event.title = "\(name)'s birthday"
        event.startDate = date
        event.endDate = date
        event.isAllDay = true
        event.calendar = store.defaultCalendarForNewEvents
        try store.save(event, span: .thisEvent)
    }
}
