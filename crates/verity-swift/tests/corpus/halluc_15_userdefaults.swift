import Foundation

func remember(_ token: String) {
    UserDefaults.standard.setString(token, forKey: "token")
    let saved = UserDefaults.standard.string(forKey: "token")
    print(saved ?? "")
}
