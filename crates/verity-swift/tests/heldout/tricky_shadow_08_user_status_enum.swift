import SwiftUI

struct Order: Identifiable {
    enum Status {
        case active, cancelled, failure, delivered
    }

    let id: Int
    let item: String
    var status: Status
}

struct OrderRow: View {
    let order: Order

    var body: some View {
        HStack {
            Text(order.item)
            Spacer()
            switch order.status {
            case .active:
                Label("In progress", systemImage: "shippingbox")
            case .cancelled:
                Label("Cancelled", systemImage: "xmark.circle")
                    .foregroundStyle(.secondary)
            case .failure:
                Label("Problem", systemImage: "exclamationmark.triangle")
                    .foregroundStyle(.red)
            case .delivered:
                Label("Delivered", systemImage: "checkmark.seal")
                    .foregroundStyle(.green)
            }
        }
        .labelStyle(.titleAndIcon)
    }
}
