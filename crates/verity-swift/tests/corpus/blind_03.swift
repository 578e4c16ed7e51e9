import SwiftUI
import PhotosUI

struct AvatarPicker: View {
    @State private var item: PhotosPickerItem?
    @State private var image: Image?

    var body: some View {
        VStack {
            (image ?? Image(systemName: "person.crop.circle"))
                .resizable()
                .scaledToFill()
                .frame(width: 120, height: 120)
                .clipShape(Circle())
            PhotosPicker("Choose photo", selection: $item, matching: .images)
        }
        .task(id: item) {
            if let data = try? await item?.loadTransferable(type: Data.self),
               let ui = UIImage(data: data) {
                image = Image(uiImage: ui)
            }
        }
    }
}
