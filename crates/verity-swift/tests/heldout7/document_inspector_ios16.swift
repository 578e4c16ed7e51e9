import SwiftUI

struct DocumentEditor: View {
    @State private var text = ""
    @State private var showInfo = false

    var body: some View {
        NavigationStack {
            TextEditor(text: $text)
                .padding()
                .toolbar {
                    Button {
                        showInfo.toggle()
                    } label: {
                        Image(systemName: "info.circle")
                    }
                }
                .inspector(isPresented: $showInfo) {
                    Form {
                        LabeledContent("Words", value: "\(text.split(separator: " ").count)")
                        LabeledContent("Characters", value: "\(text.count)")
                    }
                }
        }
    }
}
