import Foundation

final class HealthCheck {
    private let endpoint = URL(string: "https://example.com/health")!

    func ping(completion: @escaping (Bool) -> Void) {
        URLSession.shared.dataTask(with: endpoint) { data, response, error in
            guard error == nil else {
                completion(false)
                return
            }
            let ok = response?.statusCode == 200
            completion(ok && data != nil)
        }.resume()
    }
}
