import GameKit
import UIKit

@MainActor
final class GameCenterManager {
    static let shared = GameCenterManager()

    func authenticate(from presenter: UIViewController) {
        GKLocalPlayer.local.authenticateHandler = { viewController, error in
            if let viewController {
                presenter.present(viewController, animated: true)
            } else if GKLocalPlayer.local.isAuthenticated {
                GKAccessPoint.shared.location = .topLeading
                GKAccessPoint.shared.isActive = true
            } else if let error {
                print("Game Center unavailable: \(error.localizedDescription)")
            }
        }
    }

    func submit(score: Int) async {
        guard GKLocalPlayer.local.isAuthenticated else { return }
        try? await GKLeaderboard.submitScore(score, context: 0, player: GKLocalPlayer.local,
                                            leaderboardIDs: ["com.example.highscores"])
    }
}
