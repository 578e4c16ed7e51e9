import SwiftUI

struct FilterSheetHost: View {
    @State private var showFilters = false
    @State private var onlyFavorites = false
    @State private var minRating = 3.0

    var body: some View {
        NavigationStack {
            Text("Results")
                .toolbar {
                    ToolbarItem(placement: .topBarTrailing) {
                        Button("Filters", systemImage: "line.3.horizontal.decrease.circle") {
                            showFilters = true
                        }
                    }
                }
                .sheet(isPresented: $showFilters) {
                    Form {
                        Toggle("Favorites only", isOn: $onlyFavorites)
                        Slider(value: $minRating, in: 1...5, step: 1) {
                            Text("Minimum rating")
                        }
                    }
                    .presentationDetents([.medium, .large, .full])
                    .presentationDragIndicator(.visible)
                }
        }
    }
}
