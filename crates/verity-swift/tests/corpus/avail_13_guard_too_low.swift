import SwiftUI

struct Fallback: View {
    var body: some View {
        if #available(iOS 16, *) {
            ContentUnavailableView("Empty", systemImage: "tray")
        } else {
            Text("Empty")
        }
    }
}
