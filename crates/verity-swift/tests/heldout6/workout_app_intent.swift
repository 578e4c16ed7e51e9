import AppIntents

enum WorkoutKind: String, AppEnum {
    case run, ride, swim

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Workout"
    static var caseDisplayRepresentations: [WorkoutKind: DisplayRepresentation] = [
        .run: "Run",
        .ride: "Ride",
        .swim: "Swim"
    ]
}

struct StartWorkoutIntent: AppIntent {
    static var title: LocalizedStringResource = "Start Workout"
    static var openAppWhenRun = true

    @Parameter(title: "Kind", default: .run)
    var kind: WorkoutKind

    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Starting your \(kind.rawValue).")
    }
}

struct WorkoutShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: StartWorkoutIntent(),
            phrases: ["Start a workout in \(.applicationName)"],
            shortTitle: "Start Workout",
            systemImageName: "figure.run"
        )
    }
}
