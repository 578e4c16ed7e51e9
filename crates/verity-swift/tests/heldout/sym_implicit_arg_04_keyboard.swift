import SwiftUI

struct SignUpForm: View {
    @State private var email = ""
    @State private var password = ""
    @State private var acceptsTerms = false
    @FocusState private var focused: Field?

    enum Field: Hashable {
        case email, password
    }

    var body: some View {
        Form {
            Section("Account") {
                TextField("Email", text: $email)
                    .keyboardType(.emailPad)
                    .textContentType(.emailAddress)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                    .focused($focused, equals: .email)
                    .submitLabel(.next)
                    .onSubmit { focused = .password }
                SecureField("Password", text: $password)
                    .textContentType(.newPassword)
                    .focused($focused, equals: .password)
                    .submitLabel(.done)
            }
            Section {
                Toggle("I accept the terms", isOn: $acceptsTerms)
            }
            Button("Create account") {}
                .disabled(email.isEmpty || password.count < 8 || !acceptsTerms)
        }
    }
}
