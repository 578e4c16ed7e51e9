import SwiftUI

struct ProfileScreen: View {
    let name: String
    let email: String

    var body: some View {
        List {
            LabeledContent("Name", value: name)
            LabeledContent("Email", value: email)
        }
        .listStyle(.insetGrouped)
        .navigationBarTitle(Text("Profile"), displayMode: .inline)
    }
}
