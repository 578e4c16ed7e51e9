import HealthKit

final class StepCounter {
    private let store = HKHealthStore()

    func todaySteps(completion: @escaping (Double) -> Void) {
        let type = HKQuantityType(.stepCount)
        let start = Calendar.current.startOfDay(for: Date())
        let predicate = HKQuery.predicateForSamples(withStart: start, end: Date(), options: .strictStartDate)
        let query = HKStatisticsQuery(quantityType: type,
                                      quantitySamplePredicate: predicate,
                                      options: .cumulativeSum) { _, statistics, _ in
            let steps = statistics?.sumQuantity()?.doubleValue(for: HKUnit.steps()) ?? 0
            DispatchQueue.main.async { completion(steps) }
        }
        store.execute(query)
    }
}
