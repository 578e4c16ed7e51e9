import Foundation

final class StatusPinger {
    private var task: URLSessionDataTask?

    func ping(_ url: URL, completion: @escaping (Result<Int, Error>) -> Void) {
        task?.cancel()
        task = URLSession.shared.dataTask(with: url) { data, response, error in
            if let error {
                completion(.failure(error))
                return
            }
            guard let http = response as? HTTPURLResponse else {
                completion(.failure(URLError(.badServerResponse)))
                return
            }
            let length = data?.count ?? 0
            print("got \(length) bytes, content type \(http.value(forHTTPHeaderField: "Content-Type") ?? "?")")
            completion(.success(http.statusCode))
        }
        task?.resume()
    }
}
