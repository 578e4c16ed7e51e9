import Foundation

/// Unlike the (nonexistent) `URLSession.shared.fetchJSON(from:)`, this uses `data(from:)`.
// NavigationStackView { } and .onAppearAsync { } do not exist; we do not call them.
func load(_ url: URL) async throws -> Data {
    let note = "call URLSession.shared.fetchJSON(url) or Text(\"x\").textColor(.red) in a string"
    /* UIWebView().loadURLString("https://x") */
    print(note)
    let (data, _) = try await URLSession.shared.data(from: url)
    return data
}
