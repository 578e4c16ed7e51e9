import SwiftUI
import UIKit

struct Message: Identifiable {
    let id: UUID
    let author: String
    let body: String
    let sentAt: Date
}

struct MessageBubble: View {
    let message: Message
    let isMine: Bool

    var body: some View {
        VStack(alignment: isMine ? .trailing : .leading, spacing: 2) {
            Text(message.body)
                .padding(10)
                .background(isMine ? Color.accentColor : Color(.secondarySystemBackground),
                            in: RoundedRectangle(cornerRadius: 14))
                .foregroundStyle(isMine ? .white : .primary)
            Text(message.sentAt, style: .relativeTime)
                .font(.caption2)
                .foregroundStyle(.secondary)
        }
        .frame(maxWidth: .infinity, alignment: isMine ? .trailing : .leading)
        .padding(.horizontal)
    }
}
