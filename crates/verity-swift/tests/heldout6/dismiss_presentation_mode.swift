import SwiftUI

struct EditNoteView: View {
    @Environment(\.presentationMode) private var presentationMode
    @State private var text: String

    init(text: String) {
        _text = State(initialValue: text)
    }

    var body: some View {
        NavigationStack {
            TextEditor(text: $text)
                .padding()
                .toolbar {
                    ToolbarItem(placement: .confirmationAction) {
                        Button("Done") {
                            presentationMode.wrappedValue.dismiss()
                        }
                    }
                }
        }
    }
}
