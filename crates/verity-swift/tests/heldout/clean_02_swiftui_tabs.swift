import SwiftUI

struct RootTabs: View {
    @State private var selection = 0
    @State private var badgeCount = 3

    var body: some View {
        TabView(selection: $selection) {
            NavigationStack {
                List(1...20, id: \.self) { index in
                    NavigationLink("Story \(index)", value: index)
                }
                .navigationDestination(for: Int.self) { index in
                    Text("Story \(index)")
                        .navigationTitle("Story")
                        .navigationBarTitleDisplayMode(.inline)
                }
                .navigationTitle("Feed")
            }
            .tabItem { Label("Feed", systemImage: "newspaper") }
            .tag(0)

            NavigationStack {
                Text("No new messages")
                    .navigationTitle("Inbox")
            }
            .tabItem { Label("Inbox", systemImage: "tray") }
            .badge(badgeCount)
            .tag(1)
        }
        .onChange(of: selection) { _, newValue in
            if newValue == 1 { badgeCount = 0 }
        }
    }
}
