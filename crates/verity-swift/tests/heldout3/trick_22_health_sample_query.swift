import HealthKit

final class HeartRateReader {
    private let store = HKHealthStore()

    func latestBeatsPerMinute(_ done: @escaping (Double?) -> Void) {
        let type = HKQuantityType(.heartRate)
        let newestFirst = NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false)
        let query = HKSampleQuery(sampleType: type, predicate: nil, limit: 1, sortDescriptors: [newestFirst]) { _, samples, _ in
            let unit = HKUnit.count().unitDivided(by: .minute())
            let sample = samples?.first as? HKQuantitySample
            done(sample?.quantity.doubleValue(for: unit))
        }
        store.execute(query)
    }
}
