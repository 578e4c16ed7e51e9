import SwiftUI

struct ShareOptionsView: View {
    @State private var isSharing = false
    @State private var message = ""

    var body: some View {
        Button("Share progress") { isSharing = true }
            .buttonStyle(.borderedProminent)
            .sheet(isPresented: $isSharing) {
                VStack(spacing: 16) {
                    TextField("Add a message", text: $message, axis: .vertical)
                        .textFieldStyle(.roundedBorder)
                        .lineLimit(3...6)
                    Button("Send") { isSharing = false }
                        .buttonStyle(.bordered)
                }
                .padding()
                .presentationDetents([.fraction(0.3), .medium, .height(520)])
                .presentationDragIndicator(.visible)
                .presentationBackgroundInteraction(.enabled(upThrough: .medium))
                .presentationCornerRadius(28)
            }
    }
}
