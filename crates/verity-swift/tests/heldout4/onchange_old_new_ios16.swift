import SwiftUI

struct VolumeSlider: View {
    @State private var volume: Double = 0.5
    @State private var lastChange = ""

    var body: some View {
        VStack {
            Slider(value: $volume, in: 0...1)
            Text(lastChange)
                .font(.footnote)
        }
        .padding()
        .onChange(of: volume) { oldValue, newValue in
            lastChange = newValue > oldValue ? "louder" : "quieter"
        }
    }
}
