import SwiftUI
import Observation

@Observable
final class Draft {
    var body = ""
}

struct DraftEditor: View {
    @Bindable var draft: Draft

    var body: some View {
        TextField("Write something", text: $draft.body, axis: .multiline)
            .lineLimit(3...8)
            .padding()
    }
}
