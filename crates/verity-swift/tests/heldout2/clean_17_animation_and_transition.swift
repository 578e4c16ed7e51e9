import SwiftUI

struct ToastDemo: View {
    @State private var showToast = false
    @State private var count = 0

    var body: some View {
        ZStack(alignment: .bottom) {
            VStack(spacing: 20) {
                Text("\(count)")
                    .font(.largeTitle.monospacedDigit())
                    .contentTransition(.numericText())
                    .animation(.snappy, value: count)
                Button("Add") {
                    count += 1
                    withAnimation(.spring(duration: 0.4, bounce: 0.3)) {
                        showToast = true
                    }
                }
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity)

            if showToast {
                Text("Added!")
                    .padding()
                    .background(.ultraThinMaterial, in: Capsule())
                    .transition(.move(edge: .bottom).combined(with: .opacity))
                    .onTapGesture {
                        withAnimation { showToast = false }
                    }
            }
        }
    }
}
