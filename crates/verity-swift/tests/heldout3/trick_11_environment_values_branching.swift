import SwiftUI

struct AdaptiveHeader: View {
    @Environment(\.colorScheme) private var colorScheme
    @Environment(\.horizontalSizeClass) private var sizeClass
    @Environment(\.dynamicTypeSize) private var typeSize

    var body: some View {
        let stacked = sizeClass == .compact || typeSize >= .accessibility1
        Group {
            if stacked {
                VStack(alignment: .leading) { content }
            } else {
                HStack { content }
            }
        }
        .padding()
        .background(colorScheme == .dark ? Color.black : Color.white)
    }

    @ViewBuilder private var content: some View {
        Image(systemName: "leaf")
        Text("Garden planner")
    }
}
