import AppIntents

struct LogWaterIntent: AppIntent {
    static var title: LocalizedStringResource = "Log Water"
    static var openAppWhenRun: Bool = false

    @Parameter(title: "Glasses")
    var glasses: Int

    func perform() async throws -> some IntentResult & ProvidesDialog {
        let total = UserDefaults.standard.integer(forKey: "glasses") + glasses
        UserDefaults.standard.set(total, forKey: "glasses")
        return .result(dialog: "Logged \(glasses) glasses. \(total) today.")
    }
}
