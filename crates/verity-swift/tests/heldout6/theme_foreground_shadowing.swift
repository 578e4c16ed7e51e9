import SwiftUI

enum Severity { case info, warning, critical }

struct Theme {
    var accent: Color = .indigo

    func foregroundColor(for severity: Severity) -> Color {
        switch severity {
        case .info: .secondary
        case .warning: .orange
        case .critical: .red
        }
    }

    func cornerRadius(for size: CGSize) -> CGFloat {
        min(size.width, size.height) * 0.15
    }
}

struct AlertBanner: View {
    let message: String
    let severity: Severity
    let theme = Theme()

    var body: some View {
        GeometryReader { proxy in
            Text(message)
                .font(.subheadline.weight(.semibold))
                .foregroundStyle(theme.foregroundColor(for: severity))
                .padding(12)
                .frame(maxWidth: .infinity, alignment: .leading)
                .background(
                    theme.foregroundColor(for: severity).opacity(0.12),
                    in: RoundedRectangle(cornerRadius: theme.cornerRadius(for: proxy.size))
                )
        }
        .frame(height: 56)
    }
}
