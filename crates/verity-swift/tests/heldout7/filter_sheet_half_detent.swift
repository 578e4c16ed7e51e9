import SwiftUI

struct ShopView: View {
    @State private var showFilters = false
    @State private var maxPrice = 100.0

    var body: some View {
        NavigationStack {
            Text("Products")
                .toolbar {
                    Button("Filters") { showFilters = true }
                }
                .sheet(isPresented: $showFilters) {
                    VStack {
                        Slider(value: $maxPrice, in: 0...500)
                        Text("Up to \(maxPrice, format: .number.precision(.fractionLength(0)))")
                    }
                    .padding()
                    .presentationDetents([.half, .large])
                    .presentationDragIndicator(.visible)
                }
        }
    }
}
