import SwiftUI
import UIKit

struct SupportLinks: View {
    @Environment(\.openURL) private var openURL
    @State private var showCopied = false

    private let helpCenter = URL(string: "https://help.example.com")!
    private let status = URL(string: "https://status.example.com")!

    var body: some View {
        List {
            Button("Help Center") {
                openURL.open(helpCenter)
            }
            Button("Service status") {
                openURL(status)
            }
            Button("Copy support email") {
                UIPasteboard.general.string = "support@example.com"
                showCopied = true
            }
        }
        .alert("Copied", isPresented: $showCopied) {
            Button("OK", role: .cancel) {}
        }
    }
}
