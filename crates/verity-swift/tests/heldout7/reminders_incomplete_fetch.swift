import EventKit

final class ReminderLoader {
    private let store = EKEventStore()

    func openReminders() async throws -> [String] {
        guard try await store.requestFullAccessToReminders() else { return [] }
        let predicate = store.predicateForIncompleteReminders(withDueDateStarting: nil,
                                                              ending: Date().addingTimeInterval(7 * 86_400),
                                                              calendars: nil)
        return await withCheckedContinuation { continuation in
            store.fetchReminders(matching: predicate) { reminders in
                let titles = (reminders ?? [])
                    .filter { !$0.isCompleted }
                    .map { reminder in
                        if let due = reminder.dueDateComponents?.date {
                            return "\(reminder.title ?? "") – \(due.formatted(date: .numeric, time: .omitted))"
                        }
                        return reminder.title ?? ""
                    }
                continuation.resume(returning: titles)
            }
        }
    }
}
