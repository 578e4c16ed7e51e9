import SwiftUI
import PhotosUI

struct GalleryImporter: View {
    @State private var picks: [PhotosPickerItem] = []
    @State private var loaded: [Data] = []

    var body: some View {
        VStack {
            PhotosPicker(
                selection: $picks,
                maxSelectionCount: 10,
                selectionBehavior: .ordered,
                matching: .any(of: [.images, .screenshots]),
                photoLibrary: .shared()
            ) {
                Label("Import", systemImage: "photo.stack")
            }
            Text("\(loaded.count) imported")
        }
        .task(id: picks) {
            var result: [Data] = []
            for item in picks {
                if let data = try? await item.loadTransferable(type: Data.self) {
                    result.append(data)
                }
            }
            loaded = result
        }
    }
}
