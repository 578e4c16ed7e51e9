import Foundation

struct TripSummary {
    let start: Date
    let end: Date
    let distance: Measurement<UnitLength>
    let cost: Decimal
    let companions: [String]
    let completion: Double

    var lines: [String] {
        [
            start.formatted(date: .abbreviated, time: .shortened),
            start.formatted(.dateTime.year().month(.wide).day()),
            (start..<end).formatted(.components(style: .wide)),
            distance.formatted(.measurement(width: .abbreviated, usage: .road)),
            cost.formatted(.currency(code: "EUR")),
            companions.formatted(.list(type: .and)),
            completion.formatted(.percent.precision(.fractionLength(0))),
            end.formatted(.relative(presentation: .named)),
            start.formatted(.iso8601),
        ]
    }
}

let summary = TripSummary(
    start: .now.addingTimeInterval(-86_400 * 3),
    end: .now,
    distance: Measurement(value: 412, unit: .kilometers),
    cost: 238.5,
    companions: ["Ana", "Ben", "Chloé"],
    completion: 0.82
)
summary.lines.forEach { print($0) }
