import HealthKit

final class HeartRateReader {
    private let store = HKHealthStore()

    func latest(completion: @escaping (Double?) -> Void) {
        guard let type = HKQuantityType.quantityType(forIdentifier: .heartRate) else {
            completion(nil)
            return
        }
        let sort = NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false)
        let query = HKSampleQuery(sampleType: type, predicate: nil, limit: 1, sortDescriptors: [sort]) { _, samples, _ in
            let bpm = HKUnit.count().unitDivided(by: .minute())
            let value = (samples?.first as? HKQuantitySample)?.quantity.doubleValue(for: bpm)
            completion(value)
        }
        store.execute(query)
    }
}
