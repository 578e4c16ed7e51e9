import SwiftUI

struct LoginForm: View {
    enum Field { case email, password }

    @State private var email = ""
    @State private var password = ""
    @FocusState private var focus: Field?
    var onLogin: (String, String) -> Void

    var body: some View {
        Form {
            TextField("Email", text: $email)
                .textContentType(.emailAddress)
                .keyboardType(.emailAddress)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
                .focused($focus, equals: .email)
                .submitLabel(.next)
                .onSubmit { focus = .password }
            SecureField("Password", text: $password)
                .textContentType(.password)
                .focused($focus, equals: .password)
                .submitLabel(.go)
                .onSubmit { onLogin(email, password) }
            Button("Log In") { onLogin(email, password) }
                .disabled(email.isEmpty || password.count < 8)
        }
    }
}
