import AppIntents

struct StartFocusIntent: AppIntent {
    static var title: LocalizedStringResource = "Start Focus Session"
    static var description = IntentDescription("Starts a focus session for a number of minutes.")
    static var openAppWhenRun = false

    @Parameter(title: "Minutes", default: 25, inclusiveRange: (5, 120))
    var minutes: Int

    @Parameter(title: "Label")
    var label: String?

    static var parameterSummary: some ParameterSummary {
        Summary("Focus for \(\.$minutes) minutes")
    }

    func perform() async throws -> some IntentResult & ProvidesDialog & ReturnsValue<Int> {
        let name = label ?? "Focus"
        return .result(value: minutes, dialog: "\(name) started for \(minutes) minutes.")
    }
}

struct FocusShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: StartFocusIntent(),
            phrases: ["Start a focus session in \(.applicationName)"],
            shortTitle: "Start Focus",
            systemImageName: "timer"
        )
    }
}
