import SwiftUI

struct ColorMixer: View {
    @State private var red = 0.4
    @State private var green = 0.6
    @State private var blue = 0.8

    var body: some View {
        VStack(spacing: 16) {
            RoundedRectangle(cornerRadius: 24)
                .fill(Color(red: red, green: green, blue: blue))
                .frame(height: 160)
            slider("Red", value: $red)
                .tint(.red)
            slider("Green", value: $green)
                .tint(.green)
            slider("Blue", value: $blue)
                .tint(.blue)
            Text("R \(Int(red * 255))  G \(Int(green * 255))  B \(Int(blue * 255))")
                .font(.callout.monospaced())
                .foregroundStyle(.secondary)
        }
        .padding()
    }

    private func slider(_ label: String, value: Binding<Double>) -> some View {
        HStack {
            Text(label)
                .frame(width: 60, alignment: .leading)
            Slider(value: value, in: 0...1)
        }
    }
}
