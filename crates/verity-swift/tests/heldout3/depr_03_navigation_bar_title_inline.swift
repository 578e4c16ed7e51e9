import SwiftUI

struct AboutScreen: View {
    let version = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "1.0"

    var body: some View {
        NavigationStack {
            Form {
                LabeledContent("Version", value: version)
                Link("Privacy policy", destination: URL(string: "https://example.com/privacy")!)
            }
            .navigationBarTitle("About", displayMode: .inline)
        }
    }
}
