import AppIntents

struct LogWaterIntent: AppIntent {
    static var title: LocalizedStringResource = "Log Water"
    static var description = IntentDescription("Adds a glass of water to today's log.")

    @Parameter(title: "Glasses", default: 1)
    var glasses: Int

    static var parameterSummary: some ParameterSummary {
        Summary("Log \(\.$glasses) glasses")
    }

    func perform() async throws -> some IntentResult & ProvidesDialog {
        let total = glasses * 250
        return .result(dialog: "Logged \(total) ml of water.")
    }
}

struct WaterShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(intent: LogWaterIntent(), phrases: ["Log water in \(.applicationName)"],
                    shortTitle: "Log Water", systemImageName: "drop")
    }
}
