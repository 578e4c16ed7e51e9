import HealthKit

final class StepCounter {
    private let store = HKHealthStore()
    private let stepType = HKQuantityType(.stepCount)

    func authorize() async throws {
        guard HKHealthStore.isHealthDataAvailable() else { return }
        try await store.requestAuthorization(toShare: [], read: [stepType])
    }

    func todaySteps(completion: @escaping (Double) -> Void) {
        let start = Calendar.current.startOfDay(for: .now)
        let predicate = HKQuery.predicateForSamples(withStart: start, end: .now, options: .strictStartDate)
        let query = HKStatisticsQuery(quantityType: stepType,
                                      quantitySamplePredicate: predicate,
                                      options: .cumulativeSum) { _, statistics, _ in
            let steps = statistics?.sumQuantity()?.doubleValue(for: .count()) ?? 0
            completion(steps)
        }
        store.execute(query)
    }

    func recentHeartRates() async throws -> [Double] {
        let heartRate = HKQuantityType(.heartRate)
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: heartRate)],
            sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)],
            limit: 20
        )
        let samples = try await descriptor.result(for: store)
        let bpm = HKUnit.count().unitDivided(by: .minute())
        return samples.map { $0.quantity.doubleValue(for: bpm) }
    }
}
