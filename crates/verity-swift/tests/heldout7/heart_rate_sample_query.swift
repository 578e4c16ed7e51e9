import HealthKit

struct HeartRateReading {
    let bpm: Double
    let date: Date
}

final class HeartRateHistory {
    private let store = HKHealthStore()
    private let type = HKQuantityType(.heartRate)

    func authorize() async throws {
        try await store.requestAuthorization(toShare: [], read: [type])
    }

    func lastReadings(completion: @escaping ([HeartRateReading]) -> Void) {
        let sort = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)
        let query = HKSampleQuery(sampleType: type, predicate: nil, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: [sort]) { _, samples, _ in
            let unit = HKUnit.count().unitDivided(by: .minute())
            let readings = (samples as? [HKQuantitySample] ?? []).prefix(50).map {
                HeartRateReading(bpm: $0.quantity.doubleValue(for: unit), date: $0.startDate)
            }
            DispatchQueue.main.async { completion(Array(readings)) }
        }
        store.execute(query)
    }
}
