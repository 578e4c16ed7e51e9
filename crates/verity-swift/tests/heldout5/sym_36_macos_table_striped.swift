import SwiftUI

struct Process: Identifiable {
    let id: Int32
    let name: String
    let cpu: Double
}

struct ActivityTable: View {
    @State private var processes: [Process] = []
    @State private var selection: Process.ID?

    var body: some View {
        Table(processes, selection: $selection) {
            TableColumn("PID") { Text("\($0.id)") }
                .width(60)
            TableColumn("Name", value: \.name)
            TableColumn("CPU") { process in
                Text(process.cpu, format: .percent.precision(.fractionLength(1)))
            }
        }
        .tableStyle(.striped)
        .frame(minWidth: 480, minHeight: 320)
    }
}
