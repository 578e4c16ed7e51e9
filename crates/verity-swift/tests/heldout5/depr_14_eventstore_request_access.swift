import EventKit

final class ReminderScheduler {
    private let store = EKEventStore()

    func requestCalendar(_ completion: @escaping (Bool) -> Void) {
        store.requestAccess(to: .event) { granted, error in
            if let error {
                print("Calendar access failed: \(error.localizedDescription)")
            }
            DispatchQueue.main.async { completion(granted) }
        }
    }

    func calendars() -> [EKCalendar] {
        store.calendars(for: .event).filter { $0.allowsContentModifications }
    }
}
