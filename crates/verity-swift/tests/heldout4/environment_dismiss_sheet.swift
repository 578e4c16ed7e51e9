import SwiftUI

struct NewListSheet: View {
    @Environment(\.dismiss) private var dismiss
    @State private var name = ""
    @FocusState private var nameFocused: Bool
    var onCreate: (String) -> Void

    var body: some View {
        NavigationStack {
            Form {
                TextField("List name", text: $name)
                    .focused($nameFocused)
            }
            .navigationTitle("New List")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Cancel") { dismiss() }
                }
                ToolbarItem(placement: .confirmationAction) {
                    Button("Create") {
                        onCreate(name)
                        dismiss()
                    }
                    .disabled(name.isEmpty)
                }
            }
            .onAppear { nameFocused = true }
        }
    }
}
