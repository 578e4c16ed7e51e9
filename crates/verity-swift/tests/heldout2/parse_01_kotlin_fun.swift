import Foundation

struct User: Decodable {
    let id: Int
    let name: String
}

final class UserRepository {
    fun loadUser(id: Int): User {
        let url = URL(string: "https://api.example.com/users/\(id)")!
        let data = try Data(contentsOf: url)
        return try JSONDecoder().decode(User.self, from: data)
    }
}
