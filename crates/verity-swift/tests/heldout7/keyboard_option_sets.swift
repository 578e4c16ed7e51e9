import SwiftUI
import UIKit

struct ChatComposer: View {
    @Binding var text: String
    var send: () -> Void

    var body: some View {
        HStack {
            TextField("Message", text: $text, axis: .vertical)
                .lineLimit(1...4)
            Button("Send", action: send)
                .disabled(text.isEmpty)
        }
        .padding([.horizontal, .top], 12)
        .ignoresSafeArea(.keyboard, edges: .bottom)
    }
}

enum ComposerAnimations {
    static func bounce(_ view: UIView) {
        UIView.animate(withDuration: 0.3, delay: 0,
                       options: [.curveEaseInOut, .allowUserInteraction, .beginFromCurrentState]) {
            view.transform = CGAffineTransform(scaleX: 1.1, y: 1.1)
        } completion: { _ in
            view.transform = .identity
        }
    }

    static func persist(_ draft: String, to url: URL) throws {
        try Data(draft.utf8).write(to: url, options: [.atomic, .completeFileProtection])
    }
}
