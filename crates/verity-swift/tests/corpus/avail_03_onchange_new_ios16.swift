import SwiftUI

struct Watcher: View {
    @State private var text = ""
    var body: some View {
        TextField("Type", text: $text)
            .onChange(of: text) { oldValue, newValue in
                print(oldValue, newValue)
            }
    }
}
