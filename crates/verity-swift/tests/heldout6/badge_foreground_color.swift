import SwiftUI

struct StatusBadge: View {
    enum Status { case online, away, offline }
    let status: Status

    private var tint: Color {
        switch status {
        case .online: .green
        case .away: .orange
        case .offline: .gray
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
        .padding(.horizontal, 10)
        .padding(.vertical, 4)
        .background(tint.opacity(0.15), in: Capsule())
    }

    private var label: String {
        switch status {
        case .online: "Online"
        case .away: "Away"
        case .offline: "Offline"
        }
    }
}
