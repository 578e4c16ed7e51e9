import HealthKit

struct WeeklyStepTotal {
    let store: HKHealthStore

    func fetch(completion: @escaping (Int) -> Void) {
        let type = HKQuantityType(.stepCount)
        let start = Calendar.current.date(byAdding: .day, value: -7, to: .now)!
        let predicate = HKQuery.predicateForSamples(withStart: start, end: .now)
        let query = HKStatisticsQuery(quantityType: type, quantitySamplePredicate: predicate, options: .cumulativeSum) { _, stats, _ in
            guard let sum = stats?.sumQuantity() else {
                completion(0)
                return
            }
            completion(Int(sum.doubleValue(for: .steps())))
        }
        store.execute(query)
    }
}
