import SwiftUI

struct LoginForm: View {
    @State private var username = ""
    @State private var password = ""
    @State private var remember = true
    var onSubmit: (String, String) -> Void

    var body: some View {
        Form {
            Section("Account") {
                TextField("Username", text: $username)
                    .textContentType(.username)
                    .autocorrectionDisabled()
                SecureField("Password", text: $password)
                    .textContentType(.password)
            }
            Section {
                Toggle("Remember me", isOn: $remember)
                Button("Sign in") { onSubmit(username, password) }
                    .disabled(username.isEmpty || password.count < 6)
            }
        }
        .navigationTitle("Sign in")
    }
}
