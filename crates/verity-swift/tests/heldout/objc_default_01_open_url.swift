import SwiftUI
import UIKit

struct ExternalLinksView: View {
    let appStoreURL = URL(string: "itms-apps://apps.apple.com/app/id000000000")!
    let website = URL(string: "https://example.com")!

    var body: some View {
        List {
            Button("Rate the app") {
                UIApplication.shared.open(appStoreURL)
            }
            Button("Open website") {
                UIApplication.shared.open(website, options: [:]) { success in
                    print("opened: \(success)")
                }
            }
            Button("Open Settings") {
                if let url = URL(string: UIApplication.openSettingsURLString),
                   UIApplication.shared.canOpenURL(url) {
                    UIApplication.shared.open(url, options: [:])
                }
            }
        }
    }
}
