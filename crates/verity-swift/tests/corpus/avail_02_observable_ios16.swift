import SwiftUI
import Observation

@Observable
final class Store {
    var value = 0
}

struct StoreView: View {
    @State private var store = Store()
    var body: some View { Text("\(store.value)") }
}
