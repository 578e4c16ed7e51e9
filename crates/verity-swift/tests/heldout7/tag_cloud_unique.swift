import SwiftUI

struct BlogPost: Identifiable {
    let id: Int
    let title: String
    let tags: [String]
}

struct TagCloudView: View {
    let posts: [BlogPost]

    private var allTags: [String] {
        posts.flatMap(\.tags).unique().sorted()
    }

    var body: some View {
        ScrollView(.horizontal, showsIndicators: false) {
            HStack {
                ForEach(allTags, id: \.self) { tag in
                    Text("#\(tag)")
                        .padding(.horizontal, 10)
                        .padding(.vertical, 4)
                        .background(.thinMaterial, in: Capsule())
                }
            }
            .padding()
        }
    }
}
