import SwiftUI
import Observation

@available(iOS 17.0, *)
@Observable
final class PlayerModel {
    var isPlaying = false
    var position: Double = 0
}

@available(iOS 17.0, *)
struct ModernPlayerView: View {
    @State private var model = PlayerModel()

    var body: some View {
        VStack {
            Slider(value: $model.position, in: 0...1)
            Button(model.isPlaying ? "Pause" : "Play") {
                model.isPlaying.toggle()
            }
        }
        .padding()
    }
}

struct PlayerScreen: View {
    var body: some View {
        if #available(iOS 17.0, *) {
            ModernPlayerView()
        } else {
            Text("Update to iOS 17 to use the new player.")
        }
    }
}
