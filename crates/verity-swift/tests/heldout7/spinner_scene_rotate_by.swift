import SpriteKit

final class LoadingScene: SKScene {
    private let spinner = SKSpriteNode(imageNamed: "spinner")

    override func didMove(to view: SKView) {
        backgroundColor = .black
        spinner.position = CGPoint(x: frame.midX, y: frame.midY)
        spinner.setScale(0.5)
        addChild(spinner)

        let spin = SKAction.rotate(by: .pi * 2, duration: 1.5)
        let pulse = SKAction.sequence([
            SKAction.scale(to: 0.6, duration: 0.4),
            SKAction.scale(to: 0.5, duration: 0.4),
        ])
        spinner.run(SKAction.repeatForever(SKAction.group([spin, pulse])))
    }
}
