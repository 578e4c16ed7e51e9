import SwiftUI

struct DeleteAccountButton: View {
    @State private var confirming = false
    var onDelete: () -> Void

    var body: some View {
        Button("Delete account", role: .destructive) {
            confirming = true
        }
        .alert(isPresented: $confirming) {
            Alert(
                title: Text("Delete account?"),
                message: Text("This cannot be undone."),
                primaryButton: .destructive(Text("Delete"), action: onDelete),
                secondaryButton: .cancel()
            )
        }
    }
}
