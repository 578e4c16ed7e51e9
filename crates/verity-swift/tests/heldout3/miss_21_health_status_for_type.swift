import HealthKit

struct HealthAccess {
    let store = HKHealthStore()

    func canWriteWorkouts() -> Bool {
        guard HKHealthStore.isHealthDataAvailable() else { return false }
        return store.authorizationStatus(forType: HKObjectType.workoutType()) == .sharingAuthorized
    }
}
