import SwiftUI
import PhotosUI

struct AvatarPicker: View {
    @State private var selection: PhotosPickerItem?
    @State private var avatar: UIImage?

    var body: some View {
        VStack {
            if let avatar {
                Image(uiImage: avatar)
                    .resizable()
                    .scaledToFill()
                    .frame(width: 96, height: 96)
                    .clipShape(Circle())
            }
            PhotosPicker(selection: $selection, matching: .images) {
                Label("Choose photo", systemImage: "photo")
            }
        }
        .onChange(of: selection) { _, item in
            Task {
                if let data = try? await item?.loadTransferable(type: Data.self) {
                    avatar = UIImage(data: data)
                }
            }
        }
    }
}
