import SwiftUI

struct ProgressRing: View {
    var progress: Double
    var lineWidth: CGFloat = 12

    var body: some View {
        GeometryReader { proxy in
            let diameter = min(proxy.width, proxy.size.height)
            ZStack {
                Circle()
                    .stroke(.quaternary, lineWidth: lineWidth)
                Circle()
                    .trim(from: 0, to: progress)
                    .stroke(.tint, style: StrokeStyle(lineWidth: lineWidth, lineCap: .round))
                    .rotationEffect(.degrees(-90))
                Text(progress, format: .percent.precision(.fractionLength(0)))
                    .font(.system(size: diameter * 0.2, weight: .bold, design: .rounded))
            }
            .frame(width: diameter, height: diameter)
            .frame(maxWidth: .infinity, maxHeight: .infinity)
        }
        .animation(.easeInOut, value: progress)
    }
}

#Preview {
    ProgressRing(progress: 0.65)
        .frame(width: 160, height: 160)
}
