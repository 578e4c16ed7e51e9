import SwiftUI

struct PrivacyToggles: View {
    @State private var shareAnalytics = false
    @State private var personalizedAds = false

    var body: some View {
        Form {
            Toggle("Share analytics", isOn: $shareAnalytics)
            Toggle("Personalized ads", isOn: $personalizedAds)
        }
        .accentColor(.purple)
        .scrollContentBackground(.hidden)
        .background(Color(uiColor: .systemGroupedBackground))
    }
}
