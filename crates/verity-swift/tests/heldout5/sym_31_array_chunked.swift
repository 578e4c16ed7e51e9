import SwiftUI

struct EmojiKeyboard: View {
    let emojis: [String]
    var onPick: (String) -> Void

    var body: some View {
        VStack(spacing: 6) {
            ForEach(emojis.chunked(into: 8), id: \.self) { row in
                HStack(spacing: 6) {
                    ForEach(row, id: \.self) { emoji in
                        Button(emoji) { onPick(emoji) }
                            .font(.title2)
                    }
                }
            }
        }
        .padding(8)
    }
}
