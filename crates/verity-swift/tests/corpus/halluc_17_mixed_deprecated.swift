import SwiftUI

struct Mixed: View {
    var body: some View {
        NavigationView {
            List {
                Text("Row")
                    .listRowSeparatorTintColor(.gray)
            }
            .navigationBarTitle("Mixed")
        }
    }
}
