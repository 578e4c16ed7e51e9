import SwiftUI

struct VolumeSlider: View {
    @State private var volume = 0.5
    var onChange: (Double) -> Void

    var body: some View {
        Slider(value: $volume, in: 0...1)
            .onChange(of: volume, initial: true) { _, newValue in
                onChange(newValue)
            }
            .padding()
    }
}
