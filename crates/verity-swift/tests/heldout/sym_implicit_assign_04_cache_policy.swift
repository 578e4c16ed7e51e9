import Foundation

struct ImageFetcher {
    let session: URLSession

    func request(for url: URL, offline: Bool) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.timeoutInterval = 20
        if offline {
            request.cachePolicy = .returnCacheDataElseReload
        } else {
            request.cachePolicy = .useProtocolCachePolicy
        }
        request.setValue("image/*", forHTTPHeaderField: "Accept")
        return request
    }

    func fetch(_ url: URL, offline: Bool = false) async throws -> Data {
        let (data, _) = try await session.data(for: request(for: url, offline: offline))
        return data
    }
}
