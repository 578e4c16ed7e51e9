import Foundation

struct Expense: Codable, Hashable {
    var title: String
    var amountCents: Int
    var createdAt: Date
}

final class ExpenseArchive {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    func export(_ expenses: [Expense]) throws -> Data {
        try encoder.encode(expenses)
    }

    func restore(from data: Data) throws -> [Expense] {
        try decoder.decode([Expense].self, from: data)
    }
}
