import Foundation

struct SignUpValidator {
    func validate(username: String, email: String) -> [String] {
        var problems: [String] = []
        let name = username.trimmed()
        if name.count < 3 {
            problems.append("Username is too short")
        }
        if !email.contains("@") {
            problems.append("Email is invalid")
        }
        return problems
    }
}
