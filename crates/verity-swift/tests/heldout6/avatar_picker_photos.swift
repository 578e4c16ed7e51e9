import SwiftUI
import PhotosUI

struct AvatarPicker: View {
    @State private var selection: PhotosPickerItem?
    @State private var avatar: Image?

    var body: some View {
        VStack(spacing: 12) {
            (avatar ?? Image(systemName: "person.crop.circle.fill"))
                .resizable()
                .scaledToFill()
                .frame(width: 96, height: 96)
                .clipShape(Circle())
            PhotosPicker(selection: $selection, matching: .images, photoLibrary: .shared()) {
                Text("Choose photo")
            }
        }
        .onChange(of: selection) { _, item in
            Task {
                if let data = try? await item?.loadTransferable(type: Data.self),
                   let uiImage = UIImage(data: data) {
                    avatar = Image(uiImage: uiImage)
                }
            }
        }
    }
}
