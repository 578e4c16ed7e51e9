import SwiftUI

struct FontPreferences: View {
    @AppStorage("editorFontSize") private var storedSize = 13.0
    @State private var size = 13.0

    var body: some View {
        Form {
            Slider(value: $size, in: 9...32, step: 1) {
                Text("Font size")
            }
            Text("The quick brown fox")
                .font(.system(size: size, design: .monospaced))
        }
        .padding()
        .frame(width: 360)
        .onAppear { size = storedSize }
        .onChange(of: size) { newValue in
            storedSize = newValue
        }
    }
}
