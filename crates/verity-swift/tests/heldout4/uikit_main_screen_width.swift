import SwiftUI

struct PhotoGrid: View {
    let photos: [String]
    private let columns = 3

    private var side: CGFloat {
        UIScreen.main.bounds.width / CGFloat(columns) - 2
    }

    var body: some View {
        ScrollView {
            LazyVGrid(columns: Array(repeating: GridItem(.fixed(side), spacing: 2), count: columns), spacing: 2) {
                ForEach(photos, id: \.self) { name in
                    Image(name)
                        .resizable()
                        .scaledToFill()
                        .frame(width: side, height: side)
                        .clipped()
                }
            }
        }
    }
}
