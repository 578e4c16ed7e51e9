import PencilKit
import UIKit

final class SketchViewController: UIViewController, PKCanvasViewDelegate {
    private let canvas = PKCanvasView()
    private let toolPicker = PKToolPicker()

    override func viewDidLoad() {
        super.viewDidLoad()
        canvas.frame = view.bounds
        canvas.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        canvas.delegate = self
        canvas.drawingPolicy = .anyInput
        canvas.tool = PKInkingTool(.pen, color: .systemIndigo, width: 6)
        canvas.backgroundColor = .secondarySystemBackground
        view.addSubview(canvas)
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        toolPicker.setVisible(true, forFirstResponder: canvas)
        toolPicker.addObserver(canvas)
        canvas.becomeFirstResponder()
    }

    func canvasViewDrawingDidChange(_ canvasView: PKCanvasView) {
        let image = canvasView.drawing.image(from: canvasView.bounds, scale: 2)
        navigationItem.rightBarButtonItem?.isEnabled = image.size.width > 0
    }
}
