import SwiftUI

enum LoadState {
    case loading
    case loaded(String)
    case failed
}

struct StateView: View {
    let state: LoadState

    var body: some View {
        switch state {
        case .loading -> ProgressView()
        case .loaded(let text):
            Text(text)
        case .failed:
            Text("Something went wrong")
        }
    }
}
