import SwiftUI

struct Mesh: View {
    var body: some View {
        MeshGradient(width: 2, height: 2, points: [[0, 0], [1, 0], [0, 1], [1, 1]], colors: [.red, .blue, .green, .yellow])
            .onScrollGeometryChange(for: Double.self) { geo in geo.contentOffset.y } action: { _, new in print(new) }
    }
}
