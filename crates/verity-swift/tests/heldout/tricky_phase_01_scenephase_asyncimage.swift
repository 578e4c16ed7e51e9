import SwiftUI

struct PhotoOfTheDay: View {
    @Environment(\.scenePhase) private var scenePhase
    @State private var refreshID = UUID()
    let url = URL(string: "https://picsum.photos/600")!

    var body: some View {
        AsyncImage(url: url) { phase in
            switch phase {
            case .empty:
                ProgressView()
            case .success(let image):
                image.resizable().scaledToFit()
            case .failure(let error):
                Text(error.localizedDescription)
                    .foregroundStyle(.red)
            @unknown default:
                EmptyView()
            }
        }
        .id(refreshID)
        .onChange(of: scenePhase) { oldPhase, newPhase in
            switch newPhase {
            case .active where oldPhase == .background:
                refreshID = UUID()
            case .active, .inactive, .background:
                break
            @unknown default:
                break
            }
        }
    }
}
