import SwiftUI

struct PhotoDetail: View {
    @Environment(\.dismiss) private var dismiss
    let imageName: String

    var body: some View {
        ZStack(alignment: .topTrailing) {
            Image(imageName)
                .resizable()
                .scaledToFit()
            Button {
                dismiss.callAsFunction(animated: true)
            } label: {
                Image(systemName: "xmark.circle.fill")
                    .font(.title)
            }
            .padding()
        }
    }
}
