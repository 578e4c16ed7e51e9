import SwiftUI

struct Badge: View {
    let count: Int

    var body: some View {
        Text("\(count)")
            .font(.caption)
            .textColor(.white)
            .padding(6)
            .background(Circle().fill(.red))
    }
}
