import SwiftUI

struct HalfSheet: ViewModifier {
    func body(content: Content) -> some View {
        if #available(iOS 16.0, *) {
            content
                .presentationDetents([.medium, .large])
                .presentationDragIndicator(.visible)
        } else {
            content
        }
    }
}

struct FiltersHost: View {
    @State private var showFilters = false
    @State private var onlyOpen = true

    var body: some View {
        Button("Filters") { showFilters = true }
            .sheet(isPresented: $showFilters) {
                Form {
                    Toggle("Open now", isOn: $onlyOpen)
                }
                .modifier(HalfSheet())
            }
    }
}
