import SwiftUI

struct ShareSheetHost: View {
    @State private var showsOptions = false
    @State private var includeImages = true

    var body: some View {
        Button("Share options") { showsOptions = true }
            .sheet(isPresented: $showsOptions) {
                NavigationStack {
                    Form {
                        Toggle("Include images", isOn: $includeImages)
                    }
                    .navigationTitle("Options")
                    .navigationBarTitleDisplayMode(.inline)
                }
                .presentationDetents([.half, .large])
                .presentationBackgroundInteraction(.enabled(upThrough: .medium))
            }
    }
}
