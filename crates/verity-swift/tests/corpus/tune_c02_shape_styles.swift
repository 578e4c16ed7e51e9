import SwiftUI

struct StyledCard: View {
    var body: some View {
        VStack(spacing: 12) {
            Text("Title").foregroundStyle(.tint)
            Text("Subtitle").foregroundStyle(.secondary)
            Button("Go") {}
                .buttonStyle(.borderedProminent)
            Circle().fill(.orange.gradient).frame(width: 40, height: 40)
        }
        .padding()
        .background(.ultraThinMaterial)
        .ignoresSafeArea(.container, edges: [.top, .bottom])
    }
}
