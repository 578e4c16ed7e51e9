import SpriteKit

final class BubbleScene: SKScene {
    override func didMove(to view: SKView) {
        backgroundColor = .black
        physicsWorld.gravity = CGVector(dx: 0, dy: -2)
        physicsBody = SKPhysicsBody(edgeLoopFrom: frame)
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let location = touches.first?.location(in: self) else { return }
        let bubble = SKShapeNode(circleOfRadius: 24)
        bubble.fillColor = .cyan
        bubble.position = location
        bubble.physicsBody = SKPhysicsBody(circleOfRadius: 24)
        bubble.physicsBody?.restitution = 0.6
        addChild(bubble)
        bubble.run(.sequence([
            .bounce(height: 40, duration: 0.4),
            .wait(forDuration: 2),
            .fadeOut(withDuration: 0.5),
            .removeFromParent()
        ]))
    }
}
