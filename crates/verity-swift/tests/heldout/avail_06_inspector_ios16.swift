import SwiftUI

struct DocumentEditor: View {
    @State private var text = "Hello"
    @State private var showInspector = false
    @State private var fontSize = 17.0

    var body: some View {
        NavigationStack {
            TextEditor(text: $text)
                .font(.system(size: fontSize))
                .padding()
                .inspector(isPresented: $showInspector) {
                    Form {
                        Slider(value: $fontSize, in: 12...32) {
                            Text("Font size")
                        }
                    }
                }
                .toolbar {
                    Button {
                        showInspector.toggle()
                    } label: {
                        Label("Inspector", systemImage: "sidebar.right")
                    }
                }
        }
    }
}
