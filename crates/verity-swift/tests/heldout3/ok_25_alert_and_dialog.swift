import SwiftUI

struct DraftActions: View {
    @State private var showDiscard = false
    @State private var showError = false
    @State private var errorText = ""
    var onDiscard: () -> Void

    var body: some View {
        HStack {
            Button("Discard", role: .destructive) { showDiscard = true }
            Button("Publish") {
                errorText = "No connection"
                showError = true
            }
        }
        .confirmationDialog("Discard this draft?", isPresented: $showDiscard, titleVisibility: .visible) {
            Button("Discard", role: .destructive, action: onDiscard)
            Button("Keep editing", role: .cancel) {}
        }
        .alert("Could not publish", isPresented: $showError) {
            Button("OK", role: .cancel) {}
        } message: {
            Text(errorText)
        }
    }
}
