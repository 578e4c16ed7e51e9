import Foundation

enum LooseJSON {
    static func dictionary(from data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    static func data(from object: [String: Any]) throws -> Data {
        guard JSONSerialization.isValidJSONObject(object) else {
            throw CocoaError(.propertyListWriteInvalid)
        }
        return try JSONSerialization.data(withJSONObject: object)
    }

    static func pretty(_ object: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func fragment(_ data: Data) throws -> Any {
        try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    }
}

let payload: [String: Any] = ["name": "verity", "tags": ["swift", "oracles"], "count": 3]
if let data = try? LooseJSON.data(from: payload) {
    print(LooseJSON.dictionary(from: data)?.keys.sorted() ?? [])
}
