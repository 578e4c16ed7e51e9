import SwiftUI

struct FilterOptions {
    var onlyAvailable = false
    var maxPrice: Double = 200
}

struct CatalogView: View {
    @State private var showFilters = false
    @State private var filters = FilterOptions()

    var body: some View {
        NavigationStack {
            List(0..<20, id: \.self) { index in
                Text("Product \(index)")
            }
            .navigationTitle("Catalog")
            .toolbar {
                Button("Filters") { showFilters = true }
            }
            .sheet(isPresented: $showFilters) {
                Form {
                    Toggle("Only available", isOn: $filters.onlyAvailable)
                    Slider(value: $filters.maxPrice, in: 0...500)
                }
                .presentationDetents([.small, .large])
            }
        }
    }
}
