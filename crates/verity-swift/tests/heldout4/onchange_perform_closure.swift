import SwiftUI

struct RootTabView: View {
    @State private var selectedTab = 0
    @State private var visits: [Int: Int] = [:]

    var body: some View {
        TabView(selection: $selectedTab) {
            Text("Home")
                .tabItem { Label("Home", systemImage: "house") }
                .tag(0)
            Text("Profile")
                .tabItem { Label("Profile", systemImage: "person") }
                .tag(1)
        }
        .onChange(of: selectedTab, perform: { newTab in
            visits[newTab, default: 0] += 1
        })
    }
}
