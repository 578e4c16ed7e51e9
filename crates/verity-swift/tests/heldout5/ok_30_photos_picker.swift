import SwiftUI
import PhotosUI

struct ProfilePhotoPicker: View {
    @State private var item: PhotosPickerItem?
    @State private var image: Image?

    var body: some View {
        VStack(spacing: 16) {
            (image ?? Image(systemName: "person.circle"))
                .resizable()
                .scaledToFit()
                .frame(width: 120, height: 120)
                .clipShape(Circle())

            PhotosPicker(selection: $item, matching: .images, photoLibrary: .shared()) {
                Label("Choose photo", systemImage: "photo")
            }
        }
        .task(id: item) {
            guard let item else { return }
            if let data = try? await item.loadTransferable(type: Data.self),
               let uiImage = UIImage(data: data) {
                image = Image(uiImage: uiImage)
            }
        }
    }
}
