import SwiftUI

extension Bundle {
    var appVersion: String? {
        object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String
    }

    var buildNumber: String? {
        object(forInfoDictionaryKey: "CFBundleVersion") as? String
    }
}

struct VersionFooter: View {
    var body: some View {
        Text("Version \(Bundle.main.appVersion ?? "?") (\(Bundle.main.buildNumber ?? "?"))")
            .font(.footnote)
            .foregroundStyle(.secondary)
            .frame(maxWidth: .infinity)
            .padding(.top, 24)
    }
}
