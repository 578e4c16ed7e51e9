import SwiftUI

struct ToastBanner: View {
    let message: String
    @Binding var isVisible: Bool

    var body: some View {
        Text(message)
            .padding()
            .background(.thinMaterial, in: Capsule())
            .task {
                try? await Task.sleep(for: .seconds(2))
                withAnimation { isVisible = false }
            }
    }
}
