import Foundation

final class HealthCheck {
    private var task: URLSessionDataTask?

    func ping(_ endpoint: URL, completion: @escaping (Bool) -> Void) {
        task?.cancel()
        task = URLSession.shared.dataTask(with: endpoint) { data, response, error in
            if let error {
                print("Ping failed: \(error.localizedDescription)")
                completion(false)
                return
            }
            let ok = response?.statusCode == 200 && data != nil
            DispatchQueue.main.async {
                completion(ok)
            }
        }
        task?.resume()
    }
}
