import SwiftUI

struct CountdownView: View {
    @State private var remaining = 60
    let timer = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    var body: some View {
        VStack(spacing: 16) {
            Text("\(remaining)")
                .font(.system(size: 64, weight: .bold, design: .monospaced))
            Button("Reset") {
                remaining = 60
            }
        .onReceive(timer) { _ in
            if remaining > 0 {
                remaining -= 1
            }
        }
    }
