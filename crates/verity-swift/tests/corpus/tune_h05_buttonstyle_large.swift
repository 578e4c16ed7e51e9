import SwiftUI

struct CheckoutButton: View {
    var action: () -> Void

    var body: some View {
        Button("Place order", action: action)
            .buttonStyle(.borderedProminentLarge)
            .controlSize(.large)
            .tint(.green)
    }
}
