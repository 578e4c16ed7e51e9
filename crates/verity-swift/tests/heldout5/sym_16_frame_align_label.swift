import SwiftUI

struct BadgeLabel: View {
    let text: String
    let count: Int

    var body: some View {
        HStack {
            Text(text)
                .lineLimit(1)
            Spacer(minLength: 8)
            Text("\(count)")
                .font(.caption.bold())
                .padding(.horizontal, 8)
                .background(.blue, in: Capsule())
                .foregroundStyle(.white)
        }
        .frame(width: 220, height: 44, align: .leading)
        .padding(.horizontal)
    }
}
