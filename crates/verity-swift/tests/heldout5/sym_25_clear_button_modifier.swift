import SwiftUI

struct SearchHeader: View {
    @Binding var text: String
    @FocusState private var focused: Bool

    var body: some View {
        HStack {
            Image(systemName: "magnifyingglass")
                .foregroundStyle(.secondary)
            TextField("Search recipes", text: $text)
                .textFieldStyle(.roundedBorder)
                .clearButtonMode(.whileEditing)
                .focused($focused)
                .submitLabel(.search)
            if focused {
                Button("Cancel") {
                    text = ""
                    focused = false
                }
            }
        }
        .padding(.horizontal)
    }
}
