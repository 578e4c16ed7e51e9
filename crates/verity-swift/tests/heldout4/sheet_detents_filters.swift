import SwiftUI

struct FilterSheetHost: View {
    @State private var showFilters = false
    @State private var onlyFavorites = false

    var body: some View {
        Button("Filters") { showFilters = true }
            .sheet(isPresented: $showFilters) {
                Form {
                    Toggle("Only favorites", isOn: $onlyFavorites)
                }
                .presentationDetents([.fraction(0.25), .medium, .large])
                .presentationDragIndicator(.visible)
                .presentationCornerRadius(24)
            }
    }
}
