import Foundation

final class Session {
    func fetchJSON(_ path: String) -> String { path }
    func decodeJSON() -> Int { 1 }
}

func run() {
    let session = Session()
    let decoder = Session()
    print(session.fetchJSON("/users"), decoder.decodeJSON())
    let items = [1, 2, 3].map { session in session * 2 }
    print(items)
}
