import SwiftUI

struct ProjectList: View {
    @Environment(\.openWindow) private var openWindow
    let projects: [String]

    var body: some View {
        List(projects, id: \.self) { name in
            Text(name)
                .onTapGesture(count: 2) {
                    openWindow.open(id: "detail")
                }
        }
        .frame(minWidth: 220)
    }
}
