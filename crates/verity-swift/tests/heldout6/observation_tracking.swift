import Observation
import Foundation

@Observable
final class PlayerState {
    var position: TimeInterval = 0
    var isPlaying = false
    @ObservationIgnored var lastSaved: Date = .distantPast
}

final class PlaybackPersister {
    private let state: PlayerState

    init(state: PlayerState) {
        self.state = state
        observe()
    }

    private func observe() {
        withObservationTracking {
            _ = state.position
            _ = state.isPlaying
        } onChange: { [weak self] in
            DispatchQueue.main.async {
                self?.persist()
                self?.observe()
            }
        }
    }

    private func persist() {
        UserDefaults.standard.set(state.position, forKey: "position")
        state.lastSaved = .now
    }
}
