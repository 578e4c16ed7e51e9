import SwiftUI

struct TrackList: View {
    let tracks: [String]
    @State private var index = 0
    @State private var hovering: Int?

    var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            ForEach(tracks.indices, id: \.self) { i in
                Text(tracks[i])
                    .padding(4)
                    .background(i == index ? Color.accentColor.opacity(0.3) : (hovering == i ? Color.gray.opacity(0.2) : .clear))
                    .onHover { inside in hovering = inside ? i : nil }
            }
        }
        .focusable()
        .onKeyPress(.downArrow) {
            guard index < tracks.count - 1 else { return .ignored }
            index += 1
            return .handled
        }
        .onKeyPress(.upArrow) {
            guard index > 0 else { return .ignored }
            index -= 1
            return .handled
        }
        .onChange(of: index) { oldValue, newValue in
            print("moved from \(oldValue) to \(newValue)")
        }
    }
}
