import SwiftUI
import UIKit

struct KeyboardAwareView: View {
    @State private var keyboardHeight: CGFloat = 0
    @State private var note = ""

    var body: some View {
        VStack {
            TextEditor(text: $note)
                .padding()
            Text("Keyboard: \(Int(keyboardHeight)) pt")
                .font(.footnote)
                .foregroundStyle(.secondary)
        }
        .task {
            let center = NotificationCenter.default
            for await notification in center.notifications(named: UIResponder.keyboardWillShowNotification) {
                if let frame = notification.payload[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect {
                    keyboardHeight = frame.height
                }
            }
        }
    }
}
