import SwiftUI

struct Ranked: View {
    let names = ["a", "b", "c"]
    var body: some View {
        VStack {
            ForEach(Array(names.enumerated()), id: \.offset) { pair in
                Text("\(pair.offset + 1). \(pair.element)")
            }
        }
    }
}
