import SwiftUI

struct CanvasToolbar: View {
    @State private var zoom: Double = 1.0
    var onZoom: (Double) -> Void

    var body: some View {
        HStack {
            Slider(value: $zoom, in: 0.25...4)
                .frame(width: 160)
            Text(zoom, format: .percent)
                .monospacedDigit()
        }
        .onChange(of: zoom, perform: applyZoom)
        .padding(8)
    }

    private func applyZoom(_ value: Double) {
        onZoom(value)
    }
}
