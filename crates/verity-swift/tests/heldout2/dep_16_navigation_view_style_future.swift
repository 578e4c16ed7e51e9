import SwiftUI

struct ContentView: View {
    let sections = ["Inbox", "Sent", "Archive"]

    var body: some View {
        NavigationView {
            List(sections, id: \.self) { section in
                NavigationLink(section) {
                    Text(section)
                }
            }
            .navigationTitle("Mail")
        }
        .navigationViewStyle(.stack)
    }
}
