import SwiftUI
import TipKit

struct ShortcutTip: Tip {
    var title: Text { Text("Try the shortcut") }
}

struct ShortcutBanner: View {
    let shortcutTip = ShortcutTip()

    var body: some View {
        TipView(shortcutTip)
            .padding()
    }
}
