import Foundation

struct UploadPayload: Encodable {
    let deviceID: String
    let createdAt: Date
    let batteryLevel: Double
    let tags: [String]
}

struct PayloadWriter {
    func encode(_ payload: UploadPayload) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.keyEncodingStrategy = .convertToCamelCase
        return try encoder.encode(payload)
    }

    func write(_ payload: UploadPayload, to directory: URL) throws -> URL {
        let data = try encode(payload)
        let file = directory.appending(path: "payload-\(payload.deviceID).json")
        try data.write(to: file, options: .atomic)
        return file
    }
}

let writer = PayloadWriter()
let sample = UploadPayload(deviceID: "A1", createdAt: Date(), batteryLevel: 0.8, tags: ["beta"])
if let data = try? writer.encode(sample), let text = String(data: data, encoding: .utf8) {
    print(text)
}
