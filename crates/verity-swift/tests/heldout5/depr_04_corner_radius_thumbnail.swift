import SwiftUI

struct VideoThumbnail: View {
    let title: String
    let duration: Duration

    var body: some View {
        ZStack(alignment: .bottomTrailing) {
            Rectangle()
                .fill(.gray.gradient)
                .aspectRatio(16 / 9, contentMode: .fit)
            Text(duration.formatted(.time(pattern: .minuteSecond)))
                .font(.caption2.monospacedDigit())
                .padding(4)
                .background(.black.opacity(0.7))
                .foregroundStyle(.white)
                .padding(6)
        }
        .cornerRadius(10)
        .overlay(alignment: .topLeading) {
            Text(title).font(.caption).padding(6)
        }
    }
}
