import SwiftUI

struct UsernameField: View {
    @Binding var username: String

    var body: some View {
        TextField("Username", text: $username)
            .autocapitalization(.none)
            .autocorrectionDisabled()
            .padding(10)
            .background(Color(.secondarySystemBackground), in: RoundedRectangle(cornerRadius: 8))
    }
}
