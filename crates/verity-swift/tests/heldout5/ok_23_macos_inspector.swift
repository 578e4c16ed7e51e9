import SwiftUI
import Observation

@Observable
final class CanvasModel {
    var shapes: [String] = ["Circle", "Square"]
    var selected: String?
    var showsInspector = true
}

struct CanvasWindow: View {
    @State private var model = CanvasModel()
    @Environment(\.openWindow) private var openWindow

    var body: some View {
        List(model.shapes, id: \.self, selection: $model.selected) { shape in
            Text(shape)
        }
        .inspector(isPresented: $model.showsInspector) {
            Form {
                Text(model.selected ?? "Nothing selected")
            }
            .inspectorColumnWidth(min: 200, ideal: 240, max: 320)
        }
        .toolbar {
            Button("Inspector", systemImage: "sidebar.trailing") {
                model.showsInspector.toggle()
            }
            Button("New Window") {
                openWindow(id: "canvas")
            }
        }
        .navigationSubtitle("\(model.shapes.count) shapes")
    }
}
