import AppIntents

struct StartTimerIntent: AppIntent {
    static var title: LocalizedStringResource = "Start Focus Timer"

    @Parameter(title: "Minutes", default: 25)
    var minutes: Int

    func perform() async throws -> some IntentResult & ProvidesDialog {
        UserDefaults.standard.set(Date().addingTimeInterval(Double(minutes) * 60), forKey: "timerEnd")
        return .result(message: "Timer started")
    }
}
