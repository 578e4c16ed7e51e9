import Foundation

struct Image: Codable, Hashable {
    let url: URL
    let width: Int
    let height: Int

    var aspectRatio: Double {
        Double(width) / Double(height)
    }
}

struct Gallery: Codable {
    let title: String
    let images: [Image]

    func largest() -> Image? {
        images.max { $0.width * $0.height < $1.width * $1.height }
    }
}

let json = """
{"title": "Trip", "images": [{"url": "https://example.com/a.jpg", "width": 800, "height": 600}]}
"""
let gallery = try JSONDecoder().decode(Gallery.self, from: Data(json.utf8))
let first = Image(url: URL(string: "https://example.com/b.jpg")!, width: 400, height: 400)
print(gallery.largest()?.aspectRatio ?? 0, first.aspectRatio)
