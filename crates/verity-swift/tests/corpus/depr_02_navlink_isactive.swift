import SwiftUI

struct Login: View {
    @State private var loggedIn = false
    var body: some View {
        NavigationStack {
            NavigationLink(destination: Text("Home"), isActive: $loggedIn) {
                Text("Continue")
            }
        }
    }
}
