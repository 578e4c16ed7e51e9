import AppIntents

struct OpenFavoritesIntent: AppIntent {
    static var title: LocalizedStringResource = "Open Favorites"
    static var openAppWhenRun: Bool = true

    @Parameter(title: "Count")
    var count: Int

    func perform() async throws -> some IntentResult & ProvidesDialog {
        return .result(dialog: "Opening \(count) favorites")
    }
}
