import SwiftUI

struct RootTabs: View {
    @State private var selection = 0
    @State private var unread = 3

    var body: some View {
        TabView(selection: $selection) {
            Text("Home")
                .tabItem { Label("Home", systemImage: "house") }
                .tag(0)
            Text("Messages")
                .tabItem { Label("Messages", systemImage: "bubble.left") }
                .badge(unread)
                .tag(1)
            Text("Profile")
                .tabItem { Label("Profile", systemImage: "person") }
                .tag(2)
        }
        .tint(.indigo)
    }
}
