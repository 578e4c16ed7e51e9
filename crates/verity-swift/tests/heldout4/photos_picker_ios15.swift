import SwiftUI
import PhotosUI

struct GalleryImporter: View {
    @State private var items: [PhotosPickerItem] = []

    var body: some View {
        VStack {
            PhotosPicker(selection: $items, maxSelectionCount: 5, matching: .images) {
                Text("Import up to 5 photos")
            }
            Text("\(items.count) selected")
        }
    }
}
