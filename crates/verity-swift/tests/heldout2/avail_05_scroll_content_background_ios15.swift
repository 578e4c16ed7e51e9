import SwiftUI

struct ThemedSettings: View {
    @AppStorage("notifications") private var notifications = true

    var body: some View {
        Form {
            Toggle("Notifications", isOn: $notifications)
        }
        .scrollContentBackground(.hidden)
        .background(Color.indigo.opacity(0.15))
    }
}
