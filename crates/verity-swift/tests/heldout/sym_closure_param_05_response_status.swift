import Foundation

final class LegacyDownloader {
    private var task: URLSessionDataTask?

    func download(_ url: URL, completion: @escaping (Result<Data, Error>) -> Void) {
        task = URLSession.shared.dataTask(with: url) { data, response, error in
            if let error {
                completion(.failure(error))
                return
            }
            guard let status = response?.statusCode, status == 200, let data else {
                completion(.failure(URLError(.badServerResponse)))
                return
            }
            completion(.success(data))
        }
        task?.resume()
    }

    func cancel() {
        task?.cancel()
        task = nil
    }
}
