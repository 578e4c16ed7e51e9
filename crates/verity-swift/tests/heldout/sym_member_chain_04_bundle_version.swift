import SwiftUI

struct AboutView: View {
    private var version: String {
        Bundle.main.appVersion ?? "unknown"
    }

    private var build: String {
        Bundle.main.object(forInfoDictionaryKey: "CFBundleVersion") as? String ?? "-"
    }

    var body: some View {
        VStack(spacing: 12) {
            Image(systemName: "app.gift")
                .font(.system(size: 56))
                .foregroundStyle(.tint)
            Text("Gift Tracker")
                .font(.title2.bold())
            Text("Version \(version) (\(build))")
                .font(.footnote)
                .foregroundStyle(.secondary)
            Link("Privacy policy", destination: URL(string: "https://example.com/privacy")!)
        }
        .padding()
    }
}
