import SwiftUI

enum Screen: Hashable {
    case profile
    case settings
}

struct MenuView: View {
    @State private var selection: Screen?

    var body: some View {
        NavigationStack {
            List {
                NavigationLink(destination: Text("Profile"), tag: Screen.profile, selection: $selection) {
                    Label("Profile", systemImage: "person")
                }
                Button("Open settings") {
                    selection = .settings
                }
            }
            .navigationTitle("Menu")
        }
    }
}
