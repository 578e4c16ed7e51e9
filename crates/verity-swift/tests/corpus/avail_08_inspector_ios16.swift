import SwiftUI

struct Editor: View {
    @State private var showInspector = false
    var body: some View {
        Text("Document")
            .inspector(isPresented: $showInspector) {
                Text("Inspector")
            }
    }
}
