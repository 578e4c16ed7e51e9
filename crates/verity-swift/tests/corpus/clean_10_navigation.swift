import SwiftUI

enum Route: Hashable {
    case detail(Int)
    case settings
}

struct RootView: View {
    @State private var path = NavigationPath()

    var body: some View {
        NavigationStack(path: $path) {
            List(1..<20) { n in
                NavigationLink("Item \(n)", value: Route.detail(n))
            }
            .navigationDestination(for: Route.self) { route in
                switch route {
                case .detail(let n):
                    Text("Detail \(n)")
                case .settings:
                    Text("Settings")
                }
            }
            .toolbar {
                Button {
                    path.append(Route.settings)
                } label: {
                    Image(systemName: "gear")
                }
            }
        }
    }
}
