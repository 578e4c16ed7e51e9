import SwiftUI

@available(iOS 16.0, *)
struct ModernRoot: View {
    @State private var path = NavigationPath()

    var body: some View {
        NavigationStack(path: $path) {
            List {
                Text(URL.documentsDirectory.lastPathComponent)
            }
            .navigationTitle("Files")
        }
    }
}

struct RootView: View {
    var body: some View {
        if #available(iOS 16.0, *) {
            ModernRoot()
        } else {
            Text("Please update iOS")
        }
    }
}
