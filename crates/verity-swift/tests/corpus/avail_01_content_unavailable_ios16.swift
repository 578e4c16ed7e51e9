import SwiftUI

struct EmptyState: View {
    var body: some View {
        ContentUnavailableView("No Results", systemImage: "magnifyingglass")
    }
}
