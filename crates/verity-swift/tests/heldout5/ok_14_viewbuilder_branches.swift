import SwiftUI

enum LoadState {
    case idle
    case loading(progress: Double)
    case loaded([String])
    case failed(String)
}

struct FeedContainer: View {
    let state: LoadState

    var body: some View {
        Group {
            switch state {
            case .idle:
                Color.clear
            case .loading(let progress):
                ProgressView(value: progress)
                    .progressViewStyle(.linear)
                    .padding()
            case .loaded(let items) where items.isEmpty:
                Text("Nothing here yet").foregroundStyle(.secondary)
            case .loaded(let items):
                list(items)
            case .failed(let message):
                Label(message, systemImage: "exclamationmark.triangle")
            }
        }
        .animation(.default, value: items.count)
    }

    private var items: [String] {
        if case .loaded(let items) = state { return items }
        return []
    }

    @ViewBuilder
    private func list(_ items: [String]) -> some View {
        if items.count > 3 {
            ScrollView {
                LazyVStack(alignment: .leading) {
                    ForEach(items, id: \.self) { Text($0) }
                }
            }
        } else {
            ForEach(items, id: \.self) { Text($0) }
        }
    }
}
