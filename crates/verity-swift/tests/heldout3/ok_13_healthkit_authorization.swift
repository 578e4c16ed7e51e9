import HealthKit

final class HealthPermissions {
    let store = HKHealthStore()

    func requestReadAccess() async throws {
        guard HKHealthStore.isHealthDataAvailable() else { return }
        let readTypes: Set<HKObjectType> = [
            HKQuantityType(.stepCount),
            HKQuantityType(.activeEnergyBurned),
            HKObjectType.workoutType(),
        ]
        try await store.requestAuthorization(toShare: [], read: readTypes)
    }
}
