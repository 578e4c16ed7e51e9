import SwiftUI

struct BannerView: View {
    let message: String

    var body: some View {
        Text(message)
            .padding()
            .frame(maxWidth: .infinity)
            .background(.extraThinMaterial)
            .clipShape(RoundedRectangle(cornerRadius: 12))
            .padding(.horizontal)
    }
}
