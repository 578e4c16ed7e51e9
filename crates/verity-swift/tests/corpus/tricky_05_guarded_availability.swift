import SwiftUI

struct Adaptive: View {
    var body: some View {
        if #available(iOS 17, *) {
            ContentUnavailableView("Nothing", systemImage: "tray")
        } else {
            Text("Nothing")
        }
    }
}

@available(iOS 17.0, *)
struct ModernOnly: View {
    @State private var value = 0
    var body: some View {
        Text("\(value)")
            .sensoryFeedback(.success, trigger: value)
            .onChange(of: value) { old, new in print(old, new) }
    }
}

func later() {
    guard #available(iOS 17, *) else { return }
    let view = ContentUnavailableView.search
    print(view)
}
