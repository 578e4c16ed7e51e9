import SwiftUI

struct Ticker: View {
    @State private var ticks = 0

    var body: some View {
        Text("\(ticks)")
            .task {
                for await _ in NotificationCenter.default.notifications(named: UIApplication.didBecomeActiveNotification) {
                    ticks += 1
                }
            }
            .refreshable {
                try? await Task.sleep(for: .seconds(1))
            }
    }
}
