import Foundation

final class HealthCheck {
    func run(_ url: URL, done: @escaping (Bool) -> Void) {
        var request = URLRequest(url: url)
        request.httpMethod = "HEAD"
        request.cachePolicy = .reloadIgnoringLocalCacheData

        URLSession.shared.dataTask(with: request) { _, response, error in
            guard error == nil, let response else {
                done(false)
                return
            }
            let ok = (200...299).contains(response.statusCode)
            DispatchQueue.main.async {
                done(ok)
            }
        }.resume()
    }
}
