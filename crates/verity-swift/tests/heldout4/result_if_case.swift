import Foundation

func describe(_ result: Result<Data, Error>) -> String {
    if case .success(let data) = result {
        let preview = String(decoding: data.prefix(64), as: UTF8.self)
        return "\(data.count) bytes: \(preview)"
    }
    if case .failure(let error) = result {
        return "failed: \(error.localizedDescription)"
    }
    return "unknown"
}

func firstLine(of result: Result<String, Error>) -> Substring? {
    switch result {
    case .success(let text):
        return text.split(separator: "\n").first
    case .failure:
        return nil
    }
}
