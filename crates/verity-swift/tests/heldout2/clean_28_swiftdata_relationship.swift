import Foundation
import SwiftData

@Model
final class Playlist {
    @Attribute(.unique) var name: String
    @Relationship(deleteRule: .cascade, inverse: \Track.playlist) var tracks: [Track] = []

    init(name: String) {
        self.name = name
    }
}

@Model
final class Track {
    var title: String
    var duration: TimeInterval
    var playlist: Playlist?

    init(title: String, duration: TimeInterval) {
        self.title = title
        self.duration = duration
    }
}

struct PlaylistQueries {
    let context: ModelContext

    func longTracks(minimum: TimeInterval) throws -> [Track] {
        var descriptor = FetchDescriptor<Track>(
            predicate: #Predicate { $0.duration >= minimum },
            sortBy: [SortDescriptor(\.title)]
        )
        descriptor.fetchLimit = 20
        return try context.fetch(descriptor)
    }

    func playlistCount() throws -> Int {
        try context.fetchCount(FetchDescriptor<Playlist>())
    }
}
