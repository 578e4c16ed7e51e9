import SwiftUI

struct PhotoOptionsButton: View {
    @State private var showingOptions = false
    var onCamera: () -> Void
    var onLibrary: () -> Void

    var body: some View {
        Button("Change Photo") {
            showingOptions = true
        }
        .actionSheet(isPresented: $showingOptions) {
            ActionSheet(
                title: Text("Change Photo"),
                buttons: [
                    .default(Text("Take Photo"), action: onCamera),
                    .default(Text("Choose from Library"), action: onLibrary),
                    .cancel()
                ]
            )
        }
    }
}
