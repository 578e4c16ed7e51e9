import SwiftUI

struct PhotoEditorView: View {
    @State private var exposure = 0.0
    @State private var showAdjustments = true

    var body: some View {
        Image(systemName: "photo")
            .resizable()
            .scaledToFit()
            .brightness(exposure)
            .toolbar {
                Toggle(isOn: $showAdjustments) {
                    Label("Adjust", systemImage: "slider.horizontal.3")
                }
            }
            .inspector(isPresented: $showAdjustments) {
                Form {
                    Slider(value: $exposure, in: -0.5...0.5) { Text("Exposure") }
                }
                .inspectorColumnWidth(min: 200, ideal: 260)
            }
    }
}
