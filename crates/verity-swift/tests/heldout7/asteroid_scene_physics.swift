import SpriteKit

final class AsteroidScene: SKScene, SKPhysicsContactDelegate {
    private let ship = SKSpriteNode(imageNamed: "ship")

    override func didMove(to view: SKView) {
        physicsWorld.gravity = .zero
        physicsWorld.contactDelegate = self
        ship.position = CGPoint(x: frame.midX, y: 80)
        ship.physicsBody = SKPhysicsBody(circleOfRadius: 20)
        ship.physicsBody?.categoryBitMask = 1
        ship.physicsBody?.contactTestBitMask = 2
        addChild(ship)
        spawnAsteroid()
    }

    private func spawnAsteroid() {
        let rock = SKShapeNode(circleOfRadius: 16)
        rock.name = "asteroid"
        rock.fillColor = .gray
        rock.position = CGPoint(x: CGFloat.random(in: 0...frame.width), y: frame.maxY)
        rock.physicsBody = SKPhysicsBody(circleOfRadius: 16)
        rock.physicsBody?.categoryBitMask = 2
        addChild(rock)
        rock.run(.sequence([.moveBy(x: 0, y: -frame.height - 40, duration: 4), .removeFromParent()]))
    }

    func didBegin(_ contact: SKPhysicsContact) {
        let nodes = [contact.bodyA.node, contact.bodyB.node]
        if let rock = nodes.compactMap({ $0 }).first(where: { $0.name == "asteroid" }) {
            rock.run(.sequence([.fadeOut(withDuration: 0.2), .removeFromParent()]))
        }
    }
}
