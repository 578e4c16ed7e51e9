import SwiftUI

enum AppTab: Hashable {
    case home, inbox, profile
}

struct RootTabs: View {
    @State private var selection: AppTab = .home
    @State private var unread = 3

    var body: some View {
        TabView(selection: $selection) {
            Text("Home")
                .tabItem { Label("Home", systemImage: "house") }
                .tag(AppTab.home)
            Text("Inbox")
                .tabItem { Label("Inbox", systemImage: "tray") }
                .badge(unread)
                .tag(AppTab.inbox)
            Text("Profile")
                .tabItem { Label("Profile", systemImage: "person") }
                .tag(AppTab.profile)
        }
        .toolbarBackground(.visible, for: .tabBar)
    }
}
