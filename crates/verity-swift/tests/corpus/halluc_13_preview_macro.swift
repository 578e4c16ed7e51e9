import SwiftUI

struct Cell: View {
    var body: some View { Text("cell") }
}

#PreviewLayout(.sizeThatFits) {
    Cell()
}
