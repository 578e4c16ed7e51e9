import SwiftUI

struct StatusBadge: View {
    enum Status {
        case online, away, offline
    }

    let status: Status

    private var tint: Color {
        switch status {
        case .online: return .green
        case .away: return .orange
        case .offline: return .gray
        }
    }

    var body: some View {
        HStack(spacing: 6) {
            Circle()
                .fill(tint)
                .frame(width: 8, height: 8)
            Text(label)
                .font(.caption.weight(.medium))
                .foregroundColor(tint)
        }
        .padding(.horizontal, 8)
        .padding(.vertical, 4)
        .background(tint.opacity(0.12), in: Capsule())
    }

    private var label: String {
        switch status {
        case .online: return "Online"
        case .away: return "Away"
        case .offline: return "Offline"
        }
    }
}
