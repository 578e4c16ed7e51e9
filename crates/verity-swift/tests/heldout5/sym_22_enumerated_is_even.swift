import SwiftUI

struct StripedList: View {
    let rows: [String]

    var body: some View {
        VStack(spacing: 0) {
            ForEach(Array(rows.enumerated()), id: \.offset) { index, row in
                Text(row)
                    .frame(maxWidth: .infinity, alignment: .leading)
                    .padding(10)
                    .background(index.isEven ? Color.gray.opacity(0.1) : Color.clear)
            }
        }
    }
}
