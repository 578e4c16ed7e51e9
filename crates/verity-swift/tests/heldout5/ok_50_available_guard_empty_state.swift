import SwiftUI

struct InboxView: View {
    let messages: [String]
    @State private var page = 0

    var body: some View {
        if messages.isEmpty {
            if #available(iOS 17.0, *) {
                ContentUnavailableView("No Messages", systemImage: "tray",
                                       description: Text("New mail will appear here."))
            } else {
                VStack {
                    Image(systemName: "tray").font(.largeTitle)
                    Text("No Messages")
                }
            }
        } else {
            list
        }
    }

    @ViewBuilder
    private var list: some View {
        if #available(iOS 17.0, *) {
            ScrollView(.horizontal) {
                LazyHStack {
                    ForEach(messages, id: \.self) { Text($0).containerRelativeFrame(.horizontal) }
                }
                .scrollTargetLayout()
            }
            .scrollTargetBehavior(.paging)
        } else {
            TabView(selection: $page) {
                ForEach(messages.indices, id: \.self) { Text(messages[$0]).tag($0) }
            }
            .tabViewStyle(.page)
        }
    }
}
