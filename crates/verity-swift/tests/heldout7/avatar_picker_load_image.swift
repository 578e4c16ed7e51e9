import SwiftUI
import PhotosUI

struct AvatarPicker: View {
    @State private var selection: PhotosPickerItem?
    @State private var avatar: Image?

    var body: some View {
        VStack {
            (avatar ?? Image(systemName: "person.crop.circle"))
                .resizable()
                .scaledToFill()
                .frame(width: 96, height: 96)
                .clipShape(Circle())
            PhotosPicker("Choose photo", selection: $selection, matching: .images)
        }
        .onChange(of: selection) { _, item in
            Task {
                if let item, let uiImage = try? await item.loadImage() {
                    avatar = Image(uiImage: uiImage)
                }
            }
        }
    }
}
