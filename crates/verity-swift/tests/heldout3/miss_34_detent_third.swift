import SwiftUI

struct FilterButton: View {
    @State private var showingFilters = false

    var body: some View {
        Button("Filters", systemImage: "line.3.horizontal.decrease.circle") {
            showingFilters = true
        }
        .sheet(isPresented: $showingFilters) {
            FiltersPanel()
                .presentationDetents([.third, .large])
                .presentationDragIndicator(.visible)
        }
    }
}

struct FiltersPanel: View {
    @State private var onlyFavorites = false

    var body: some View {
        Form {
            Toggle("Only favorites", isOn: $onlyFavorites)
        }
    }
}
