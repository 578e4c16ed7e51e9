import SwiftUI

struct LoginFlow: View {
    @State private var username = ""
    @State private var loggedIn = false

    var body: some View {
        NavigationStack {
            VStack(spacing: 16) {
                TextField("Username", text: $username)
                    .textFieldStyle(.roundedBorder)
                NavigationLink(destination: HomeView(name: username), isActive: $loggedIn) {
                    EmptyView()
                }
                Button("Log in") {
                    loggedIn = !username.isEmpty
                }
                .buttonStyle(.borderedProminent)
            }
            .padding()
        }
    }
}

struct HomeView: View {
    let name: String

    var body: some View {
        Text("Welcome, \(name)")
            .font(.title)
    }
}
