import SwiftUI
import PhotosUI

struct GalleryPicker: View {
    @State private var items: [PhotosPickerItem] = []
    @State private var images: [UIImage] = []

    var body: some View {
        VStack {
            ScrollView(.horizontal) {
                HStack {
                    ForEach(images.indices, id: \.self) { index in
                        Image(uiImage: images[index])
                            .resizable()
                            .scaledToFill()
                            .frame(width: 80, height: 80)
                            .clipShape(RoundedRectangle(cornerRadius: 8))
                    }
                }
            }
            PhotosPicker(selection: $items, maxSelectionCount: 5, matching: .images) {
                Label("Select photos", systemImage: "photo.on.rectangle")
            }
        }
        .onChange(of: items) { _, newItems in
            Task {
                var loaded: [UIImage] = []
                for item in newItems {
                    if let data = try? await item.loadTransferable(type: Data.self),
                       let image = UIImage(data: data) {
                        loaded.append(image)
                    }
                }
                images = loaded
            }
        }
    }
}
