import SwiftUI

struct UsernameField: View {
    @State private var username = ""
    @State private var isValid = false

    var body: some View {
        VStack(alignment: .leading) {
            TextField("Username", text: $username)
                .textInputAutocapitalization(.never)
                .autocorrectionDisabled()
                .onChange(of: username) { oldValue, newValue in
                    let cleaned = newValue.trimmed()
                    isValid = cleaned.count >= 3 && cleaned != oldValue
                }
            Text(isValid ? "Looks good" : "At least 3 characters")
                .font(.caption)
                .foregroundStyle(isValid ? .green : .secondary)
        }
        .padding()
    }
}
