import SwiftUI
import AVKit

struct TrailerView: View {
    let url: URL
    @State private var player: AVPlayer?
    @State private var position: Double = 0
    @State private var observer: Any?

    var body: some View {
        VStack {
            VideoPlayer(player: player)
                .frame(height: 220)
            Text("\(Int(position)) s")
            Button(player?.timeControlStatus == .playing ? "Pause" : "Play") {
                guard let player else { return }
                player.timeControlStatus == .playing ? player.pause() : player.play()
            }
        }
        .onAppear {
            let player = AVPlayer(url: url)
            observer = player.addPeriodicTimeObserver(forInterval: CMTime(seconds: 0.5, preferredTimescale: 600),
                                                      queue: .main) { time in
                position = time.seconds
            }
            self.player = player
        }
        .onDisappear {
            if let observer { player?.removeTimeObserver(observer) }
            player?.pause()
        }
    }
}
