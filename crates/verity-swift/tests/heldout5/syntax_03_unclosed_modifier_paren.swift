import SwiftUI

struct ProgressRing: View {
    let progress: Double

    var body: some View {
        ZStack {
            Circle()
                .stroke(.gray.opacity(0.2), lineWidth: 12)
            Circle()
                .trim(from: 0, to: progress)
                .stroke(.blue, style: StrokeStyle(lineWidth: 12, lineCap: .round)
                .rotationEffect(.degrees(-90))
            Text(progress, format: .percent)
                .font(.title2.bold())
        }
        .frame(width: 140, height: 140)
    }
}
