import SwiftUI

struct Sheet: View {
    @State private var shown = false
    var body: some View {
        Button("Show") { shown = true }
            .sheet(isPresented: $shown) {
                Text("Sheet")
                    .presentationDetents([.medium, .large])
                    .presentationCornerRadiusStyle(.rounded)
            }
    }
}
