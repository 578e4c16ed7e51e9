import SwiftUI

struct AccountView: View {
    @State private var confirmSignOut = false
    @State private var showError = false
    @State private var errorText = ""

    var body: some View {
        List {
            Button("Sign out", role: .destructive) {
                confirmSignOut = true
            }
        }
        .confirmationDialog("Sign out?", isPresented: $confirmSignOut, titleVisibility: .visible) {
            Button("Sign out", role: .destructive) { signOut() }
            Button("Cancel", role: .cancel) {}
        }
        .alert("Something went wrong", isPresented: $showError) {
            Button("OK", role: .cancel) {}
        } message: {
            Text(errorText)
        }
    }

    private func signOut() {
        errorText = "Network unavailable"
        showError = true
    }
}
