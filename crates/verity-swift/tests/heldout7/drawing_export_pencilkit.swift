import UIKit
import PencilKit

final class DrawingPadController: UIViewController {
    private let canvasView = PKCanvasView()
    var drawing: PKDrawing { canvasView.drawing }

    override func viewDidLoad() {
        super.viewDidLoad()
        canvasView.frame = view.bounds
        canvasView.backgroundColor = .white
        canvasView.drawingPolicy = .anyInput
        view.addSubview(canvasView)
    }

    func clear() {
        canvasView.drawing = PKDrawing()
    }

    func exportPNG() -> Data? {
        let bounds = drawing.bounds.insetBy(dx: -10, dy: -10)
        guard !bounds.isEmpty else { return nil }
        let image = drawing.image(from: bounds, scale: traitCollection.displayScale)
        return image.pngData()
    }
}
