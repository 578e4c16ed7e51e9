import SwiftUI

struct ShareSheetHost: View {
    @State private var showingOptions = false
    @State private var includeImages = true

    var body: some View {
        Button("Share trip") {
            showingOptions = true
        }
        .sheet(isPresented: $showingOptions) {
            VStack(alignment: .leading, spacing: 16) {
                Text("Share options")
                    .font(.headline)
                Toggle("Include photos", isOn: $includeImages)
                Button("Share") { showingOptions = false }
                    .buttonStyle(.borderedProminent)
            }
            .padding()
            .presentationDetents([.medium])
        }
    }
}
