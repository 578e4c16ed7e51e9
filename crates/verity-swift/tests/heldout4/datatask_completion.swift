import Foundation

final class AvatarLoader {
    func load(from url: URL, completion: @escaping (Result<Data, Error>) -> Void) {
        let task = URLSession.shared.dataTask(with: url) { data, response, error in
            if let error {
                DispatchQueue.main.async { completion(.failure(error)) }
                return
            }
            guard let http = response as? HTTPURLResponse,
                  (200..<300).contains(http.statusCode),
                  response?.mimeType?.hasPrefix("image/") == true,
                  let data else {
                DispatchQueue.main.async { completion(.failure(URLError(.badServerResponse))) }
                return
            }
            DispatchQueue.main.async { completion(.success(data)) }
        }
        task.resume()
    }
}
