import HealthKit

final class StepCounter {
    private let store = HKHealthStore()

    func todaySteps(completion: @escaping (Double) -> Void) {
        let type = HKQuantityType(.stepCount)
        let start = Calendar.current.startOfDay(for: .now)
        let predicate = HKQuery.predicateForSamples(withStart: start, end: .now, options: .strictStartDate)
        let query = HKStatisticsQuery(quantityType: type, quantitySamplePredicate: predicate, options: .cumulativeSum) { _, stats, _ in
            let steps = stats?.totalQuantity()?.doubleValue(for: .count()) ?? 0
            completion(steps)
        }
        store.execute(query)
    }
}
