import GameKit
import UIKit

final class GameCenterManager {
    static let shared = GameCenterManager()
    private(set) var isAuthenticated = false

    func authenticate(from presenter: UIViewController) {
        GKLocalPlayer.local.authenticateHandler = { [weak self] viewController, error in
            if let viewController {
                presenter.present(viewController, animated: true)
                return
            }
            self?.isAuthenticated = error == nil && GKLocalPlayer.local.isAuthenticated
        }
    }

    func submit(score: Int) async throws {
        guard isAuthenticated else { return }
        try await GKLeaderboard.submitScore(
            score,
            context: 0,
            player: GKLocalPlayer.local,
            leaderboardIDs: ["weekly.highscore"]
        )
    }
}
