import Foundation

struct StorageSummary {
    let usedBytes: Int64
    let totalBytes: Int64
    let largestApps: [String]
    let backupDuration: Duration
    let downloads: Int
    let commuteKilometers: Double

    var lines: [String] {
        let ratio = Double(usedBytes) / Double(max(totalBytes, 1))
        return [
            "Used \(usedBytes.formatted(.byteCount(style: .file))) of \(totalBytes.formatted(.byteCount(style: .file)))",
            "That is \(ratio.formatted(.percent.precision(.fractionLength(1))))",
            "Largest: \(largestApps.formatted(.list(type: .and)))",
            "Last backup took \(backupDuration.formatted(.time(pattern: .hourMinuteSecond)))",
            "\(downloads.formatted(.number.notation(.compactName))) downloads",
            Measurement(value: commuteKilometers, unit: UnitLength.kilometers)
                .formatted(.measurement(width: .abbreviated, usage: .road)),
        ]
    }
}
