import HealthKit

final class HeartRateReader {
    private let store = HKHealthStore()

    func latestBPM(completion: @escaping (Double?) -> Void) {
        let type = HKQuantityType(.heartRate)
        let sort = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)
        let query = HKSampleQuery(sampleType: type, predicate: nil, limit: 1, sortDescriptors: [sort]) { _, samples, _ in
            guard let sample = samples?.first as? HKQuantitySample else {
                completion(nil)
                return
            }
            let bpm = sample.quantity.doubleValue(for: HKUnit.beatsPerMinute())
            completion(bpm)
        }
        store.execute(query)
    }
}
