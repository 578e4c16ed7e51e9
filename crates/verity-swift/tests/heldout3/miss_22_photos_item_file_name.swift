import SwiftUI
import PhotosUI

struct AvatarPicker: View {
    @State private var selection: PhotosPickerItem?
    @State private var caption = ""
    @State private var imageData: Data?

    var body: some View {
        VStack(spacing: 12) {
            PhotosPicker("Choose photo", selection: $selection, matching: .images)
            Text(caption).font(.footnote)
        }
        .onChange(of: selection) { _, item in
            Task {
                imageData = try? await item?.loadTransferable(type: Data.self)
                caption = item?.fileName ?? ""
            }
        }
    }
}
