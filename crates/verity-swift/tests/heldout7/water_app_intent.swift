import AppIntents

final class WaterLog {
    static let shared = WaterLog()
    private(set) var milliliters = 0
    func add(_ amount: Int) { milliliters += amount }
}

struct LogWaterIntent: AppIntent {
    static var title: LocalizedStringResource = "Log Water"
    static var description = IntentDescription("Adds a glass of water to today's log.")

    @Parameter(title: "Amount (ml)", default: 250)
    var amount: Int

    func perform() async throws -> some IntentResult & ProvidesDialog {
        WaterLog.shared.add(amount)
        return .result(dialog: "Logged \(amount) ml. Total today: \(WaterLog.shared.milliliters) ml.")
    }
}

struct WaterShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(intent: LogWaterIntent(),
                    phrases: ["Log water in \(.applicationName)"],
                    shortTitle: "Log Water",
                    systemImageName: "drop.fill")
    }
}
