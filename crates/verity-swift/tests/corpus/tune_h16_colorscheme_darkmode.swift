import SwiftUI

struct CardView: View {
    @Environment(\.colorScheme) private var colorScheme

    var body: some View {
        RoundedRectangle(cornerRadius: 16)
            .fill(colorScheme != .darkMode ? Color.white : Color.black)
            .shadow(radius: 4)
            .frame(height: 120)
    }
}
