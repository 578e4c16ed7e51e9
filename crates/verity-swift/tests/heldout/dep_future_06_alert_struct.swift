import SwiftUI

struct DeleteAccountButton: View {
    @State private var showConfirm = false
    var onDelete: () -> Void

    var body: some View {
        Button(role: .destructive) {
            showConfirm = true
        } label: {
            Label("Delete account", systemImage: "trash")
        }
        .alert(isPresented: $showConfirm) {
            Alert(
                title: Text("Delete account?"),
                message: Text("This cannot be undone."),
                primaryButton: .destructive(Text("Delete"), action: onDelete),
                secondaryButton: .cancel()
            )
        }
    }
}
