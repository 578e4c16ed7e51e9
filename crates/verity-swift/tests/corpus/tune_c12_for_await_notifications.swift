import UIKit
import SwiftUI

@MainActor
final class KeyboardWatcher {
    func watch() async {
        for await note in NotificationCenter.default.notifications(named: UIResponder.keyboardWillShowNotification) {
            let frame = note.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect
            print(note.name.rawValue, frame ?? .zero)
        }
    }
}

struct Heavy: View {
    var body: some View {
        ScrollView(.vertical) {
            Text("Bold").fontWeight(.heavy)
        }
    }
}
