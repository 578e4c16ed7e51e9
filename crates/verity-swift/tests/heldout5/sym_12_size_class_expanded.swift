import SwiftUI

struct AdaptiveGallery: View {
    @Environment(\.horizontalSizeClass) private var sizeClass
    let photos: [String]

    private var columns: [GridItem] {
        let count = sizeClass == .expanded ? 5 : 3
        return Array(repeating: GridItem(.flexible(), spacing: 4), count: count)
    }

    var body: some View {
        ScrollView {
            LazyVGrid(columns: columns, spacing: 4) {
                ForEach(photos, id: \.self) { name in
                    Image(name)
                        .resizable()
                        .aspectRatio(1, contentMode: .fill)
                        .clipped()
                }
            }
        }
    }
}
