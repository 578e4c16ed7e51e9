import SwiftUI
import UIKit

struct KeyboardAwareView: View {
    @State private var keyboardHeight: CGFloat = 0
    @State private var activations = 0

    var body: some View {
        VStack {
            Text("Activated \(activations) times")
            Spacer()
            TextField("Message", text: .constant(""))
                .textFieldStyle(.roundedBorder)
                .padding(.bottom, keyboardHeight)
        }
        .task {
            for await _ in NotificationCenter.default.notifications(named: UIApplication.didBecomeActiveNotification) {
                activations += 1
            }
        }
        .task {
            for await note in NotificationCenter.default.notifications(named: UIResponder.keyboardWillShowNotification) {
                if let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect {
                    keyboardHeight = frame.height
                }
            }
        }
    }
}
