import SwiftUI
import UIKit

struct RoundedCorner: Shape {
    var radius: CGFloat
    var corners: UIRectCorner

    func path(in rect: CGRect) -> Path {
        let bezier = UIBezierPath(roundedRect: rect, byRoundingCorners: corners,
                                  cornerRadii: CGSize(width: radius, height: radius))
        return Path(bezier.cgPath)
    }
}

extension View {
    func cornerRadius(_ radius: CGFloat, corners: UIRectCorner) -> some View {
        clipShape(RoundedCorner(radius: radius, corners: corners))
    }

    func cardStyle() -> some View {
        padding().background(.regularMaterial).cornerRadius(16, corners: [.topLeft, .topRight])
    }
}

struct BottomPanel: View {
    var body: some View {
        VStack(alignment: .leading) {
            Text("Route").font(.headline)
            Text("12 min · 3.4 km").foregroundStyle(.secondary)
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .cardStyle()
    }
}
