import Foundation

struct Quote: Decodable {
    let text: String
    let author: String
}

enum QuoteLoader {
    static func load(from url: URL, completion: @escaping (Result<Quote, Error>) -> Void) {
        URLSession.shared.dataTask(with: url) { data, _, error in
            if let error {
                completion(.failure(error))
            } else if let data {
                completion(Result { try JSONDecoder().decode(Quote.self, from: data) })
            }
        }
        .resume()
    }

    static func describe(_ result: Result<Quote, Error>) -> String {
        switch result {
        case .success(let quote):
            return "“\(quote.text)” — \(quote.author)"
        case .cancelled:
            return "Cancelled"
        case .failure(let error):
            return "Failed: \(error.localizedDescription)"
        }
    }
}
