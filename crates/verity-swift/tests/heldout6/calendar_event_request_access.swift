import EventKit

final class EventCreator {
    private let store = EKEventStore()

    func addWorkout(title: String, start: Date, minutes: Int) {
        store.requestAccess(to: .event) { [store] granted, error in
            guard granted, error == nil else { return }
            let event = EKEvent(eventStore: store)
            event.title = title
            event.startDate = start
            event.endDate = start.addingTimeInterval(TimeInterval(minutes * 60))
            event.calendar = store.defaultCalendarForNewEvents
            try? store.save(event, span: .thisEvent)
        }
    }
}
