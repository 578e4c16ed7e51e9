import SwiftUI

struct Swatch: View {
    var body: some View {
        Rectangle()
            .fill(Color(hex: "#FF8800"))
            .frame(width: 40, height: 40)
    }
}
