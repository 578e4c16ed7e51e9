import SwiftUI

struct ReaderSettings: View {
    @AppStorage("fontSize") private var fontSize = 17.0
    @AppStorage("serif") private var serif = false

    var body: some View {
        Form {
            Slider(value: $fontSize, in: 12...28, step: 1) {
                Text("Font size")
            }
            Toggle("Serif font", isOn: $serif)
            Text("The quick brown fox")
                .font(.system(size: fontSize, design: serif ? .serif : .default))
        }
        .onAppear {
            UserDefaults.standard.register(defaults: ["fontSize": 17.0])
        }
    }
}
