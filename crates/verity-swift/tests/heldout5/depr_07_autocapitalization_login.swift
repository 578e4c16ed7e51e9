import SwiftUI

struct LoginForm: View {
    @State private var email = ""
    @State private var password = ""
    var onSubmit: (String, String) -> Void

    var body: some View {
        VStack(spacing: 12) {
            TextField("Email", text: $email)
                .keyboardType(.emailAddress)
                .textContentType(.emailAddress)
                .autocapitalization(.none)
            SecureField("Password", text: $password)
                .textContentType(.password)
            Button("Sign In") { onSubmit(email, password) }
                .buttonStyle(.borderedProminent)
                .disabled(email.isEmpty || password.isEmpty)
        }
        .textFieldStyle(.roundedBorder)
        .padding()
    }
}
