import SwiftUI

struct Invoice: Identifiable, Hashable {
    let id: Int
    var client: String
    var amount: Double
    var issued: Date
}

struct InvoiceBrowser: View {
    @State private var invoices: [Invoice] = []
    @State private var selection: Set<Invoice.ID> = []
    @State private var sortOrder = [KeyPathComparator(\Invoice.issued, order: .reverse)]

    var body: some View {
        NavigationSplitView {
            List {
                Label("All Invoices", systemImage: "doc.text")
                Label("Overdue", systemImage: "clock.badge.exclamationmark")
            }
            .navigationSplitViewColumnWidth(min: 180, ideal: 200)
        } detail: {
            Table(invoices, selection: $selection, sortOrder: $sortOrder) {
                TableColumn("Client", value: \.client)
                TableColumn("Amount", value: \.amount) { invoice in
                    Text(invoice.amount, format: .currency(code: "USD"))
                }
                TableColumn("Issued", value: \.issued) { invoice in
                    Text(invoice.issued, format: .dateTime.year().month().day())
                }
            }
            .tableStyle(.inset)
            .alternatingRowBackgrounds()
            .onChange(of: sortOrder) { _, newOrder in
                invoices.sort(using: newOrder)
            }
        }
    }
}
