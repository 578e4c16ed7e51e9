import SpriteKit

final class BalloonScene: SKScene, SKPhysicsContactDelegate {
    private var score = 0
    private let scoreLabel = SKLabelNode(fontNamed: "AvenirNext-Bold")

    override func didMove(to view: SKView) {
        backgroundColor = .systemTeal
        physicsWorld.gravity = CGVector(dx: 0, dy: 0.8)
        physicsWorld.contactDelegate = self

        scoreLabel.fontSize = 28
        scoreLabel.position = CGPoint(x: frame.midX, y: frame.maxY - 60)
        addChild(scoreLabel)

        let spawn = SKAction.run { [weak self] in self?.spawnBalloon() }
        run(.repeatForever(.sequence([spawn, .wait(forDuration: 0.8)])))
    }

    private func spawnBalloon() {
        let balloon = SKShapeNode(circleOfRadius: 24)
        balloon.fillColor = .systemPink
        balloon.name = "balloon"
        balloon.position = CGPoint(x: .random(in: frame.minX + 30...frame.maxX - 30), y: frame.minY)
        balloon.physicsBody = SKPhysicsBody(circleOfRadius: 24)
        balloon.physicsBody?.affectedByGravity = true
        addChild(balloon)
        balloon.run(.sequence([.wait(forDuration: 6), .removeFromParent()]))
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let point = touches.first?.location(in: self) else { return }
        for node in nodes(at: point) where node.name == "balloon" {
            node.run(.sequence([.scale(to: 1.4, duration: 0.1), .fadeOut(withDuration: 0.1), .removeFromParent()]))
            score += 1
            scoreLabel.text = "\(score)"
        }
    }
}
