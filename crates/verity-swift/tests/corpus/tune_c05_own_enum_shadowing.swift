import SwiftUI

enum LoadState: Equatable {
    case idle
    case loading
    case loaded([String])
    case failed(String)
}

extension Date.FormatStyle.DateStyle {
    static var medium: Self { .abbreviated }
}

struct FeedView: View {
    @State private var state: LoadState = .idle

    var body: some View {
        Group {
            switch state {
            case .idle, .loading:
                ProgressView()
            case .loaded(let items):
                List(items, id: \.self) { Text($0) }
            case .failed(let message):
                Text(message)
            }
        }
        .overlay(alignment: .bottom) {
            Text(Date.now.formatted(date: .medium, time: .omitted))
        }
        .task {
            state = .loading
            state = .loaded(["a", "b"])
        }
    }
}
