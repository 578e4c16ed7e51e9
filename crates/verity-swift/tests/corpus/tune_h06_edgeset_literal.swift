import SwiftUI

struct FullBleedImage: View {
    let name: String

    var body: some View {
        Image(name)
            .resizable()
            .scaledToFill()
            .ignoresSafeArea(.container, edges: [.top, .bottomEdge])
    }
}
