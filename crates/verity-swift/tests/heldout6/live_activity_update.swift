import ActivityKit
import Foundation

struct TimerAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var endsAt: Date
        var isPaused: Bool
    }
    var name: String
}

@MainActor
final class TimerActivityController {
    private var activity: Activity<TimerAttributes>?

    func start(name: String, minutes: Int) throws {
        guard ActivityAuthorizationInfo().areActivitiesEnabled else { return }
        let end = Date.now.addingTimeInterval(TimeInterval(minutes * 60))
        let content = ActivityContent(state: TimerAttributes.ContentState(endsAt: end, isPaused: false), staleDate: end)
        activity = try Activity.request(attributes: TimerAttributes(name: name), content: content)
    }

    func pause() async {
        guard let activity else { return }
        var state = activity.content.state
        state.isPaused = true
        await activity.update(ActivityContent(state: state, staleDate: nil))
    }

    func finish() async {
        await activity?.end(nil, dismissalPolicy: .after(.now.addingTimeInterval(60)))
    }
}
