import SwiftUI
import SwiftData

@Model
final class Photo {
    var caption: String
    var takenAt: Date
    var isFavorite: Bool

    init(caption: String, takenAt: Date, isFavorite: Bool = false) {
        self.caption = caption
        self.takenAt = takenAt
        self.isFavorite = isFavorite
    }
}

struct AlbumSettingsView: View {
    @Environment(\.modelContext) private var modelContext
    @Environment(\.dismiss) private var dismiss
    @Query private var photos: [Photo]

    var body: some View {
        Form {
            Section("Storage") {
                LabeledContent("Photos", value: "\(photos.count)")
                Button("Delete all photos", role: .destructive) {
                    modelContext.removeAll(Photo.self)
                    dismiss()
                }
            }
        }
    }
}
