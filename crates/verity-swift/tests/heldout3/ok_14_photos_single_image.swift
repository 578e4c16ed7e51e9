import SwiftUI
import UIKit
import PhotosUI

struct CoverPhotoPicker: View {
    @State private var item: PhotosPickerItem?
    @State private var image: Image?

    var body: some View {
        VStack {
            (image ?? Image(systemName: "photo"))
                .resizable()
                .scaledToFit()
                .frame(height: 200)
            PhotosPicker(selection: $item, matching: .images) {
                Text("Choose a cover")
            }
        }
        .onChange(of: item) {
            Task {
                if let data = try? await item?.loadTransferable(type: Data.self),
                   let uiImage = UIImage(data: data) {
                    image = Image(uiImage: uiImage)
                }
            }
        }
    }
}
