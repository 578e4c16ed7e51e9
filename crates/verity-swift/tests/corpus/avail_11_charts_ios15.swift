import SwiftUI
import Charts

struct Spark: View {
    let values: [Double]
    var body: some View {
        Chart {
            ForEach(Array(values.enumerated()), id: \.offset) { item in
                LineMark(x: .value("i", item.offset), y: .value("v", item.element))
            }
        }
    }
}
