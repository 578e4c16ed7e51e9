import SwiftUI
import Charts

struct Share: Identifiable {
    let id = UUID()
    let name: String
    let value: Double
}

struct ShareChart: View {
    let shares: [Share]

    var body: some View {
        if #available(iOS 17.0, *) {
            Chart(shares) { share in
                SectorMark(angle: .value("Value", share.value))
                    .foregroundStyle(by: .value("Name", share.name))
            }
        } else {
            Chart(shares) { share in
                BarMark(
                    x: .value("Name", share.name),
                    y: .value("Value", share.value)
                )
            }
        }
    }
}
