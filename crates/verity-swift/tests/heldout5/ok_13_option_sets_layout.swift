import SwiftUI
import UserNotifications

struct ReminderBanner: View {
    @State private var granted = false

    var body: some View {
        VStack(spacing: 12) {
            Text(granted ? "Reminders on" : "Turn on reminders")
                .font(.headline)
            Button("Allow") {
                Task {
                    let center = UNUserNotificationCenter.current()
                    granted = (try? await center.requestAuthorization(options: [.alert, .badge, .sound, .provisional])) ?? false
                }
            }
            .buttonStyle(.borderedProminent)
        }
        .padding([.horizontal, .top], 16)
        .padding(.bottom, 8)
        .frame(maxWidth: .infinity)
        .background(.thinMaterial, in: RoundedRectangle(cornerRadius: 16, style: .continuous))
        .ignoresSafeArea(.keyboard, edges: .bottom)
    }
}
