import Foundation

struct Measurement: Codable {
    let sensorID: String
    let value: Double
    let recordedAt: Date
}

func decodeMeasurements(_ data: Data) throws -> [Measurement] {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601WithFractionalSeconds
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"
    )
    return try decoder.decode([Measurement].self, from: data)
}
