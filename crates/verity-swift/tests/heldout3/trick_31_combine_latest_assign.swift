import Combine
import Foundation

@MainActor
final class SignUpModel: ObservableObject {
    @Published var email = ""
    @Published var password = ""
    @Published var query = ""
    @Published private(set) var canSubmit = false
    @Published private(set) var suggestions: [String] = []

    init() {
        Publishers.CombineLatest($email, $password)
            .map { email, password in email.contains("@") && password.count >= 8 }
            .removeDuplicates()
            .assign(to: &$canSubmit)

        $query
            .debounce(for: .milliseconds(250), scheduler: RunLoop.main)
            .map { text in text.isEmpty ? [] : ["\(text)@icloud.com", "\(text)@gmail.com"] }
            .assign(to: &$suggestions)
    }
}
