import SwiftUI

struct DiskUsageRow: View {
    let volume: String
    let usedFraction: Double

    var body: some View {
        HStack {
            Image(systemName: "internaldrive")
                .foregroundColor(.accentColor)
            VStack(alignment: .leading) {
                Text(volume)
                ProgressView(value: usedFraction)
                    .tint(usedFraction > 0.9 ? .red : .blue)
            }
            Text(usedFraction, format: .percent.precision(.fractionLength(0)))
                .monospacedDigit()
        }
        .padding(.vertical, 4)
    }
}
