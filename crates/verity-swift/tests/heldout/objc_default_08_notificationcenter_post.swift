import Foundation

extension Notification.Name {
    static let cartDidChange = Notification.Name("cartDidChange")
}

final class Cart {
    private(set) var items: [String] = []

    func add(_ item: String) {
        items.append(item)
        NotificationCenter.default.post(name: .cartDidChange, object: self)
    }

    func clear() {
        items.removeAll()
        NotificationCenter.default.post(name: .cartDidChange, object: self, userInfo: ["cleared": true])
    }
}

final class CartBadge: NSObject {
    private(set) var count = 0

    init(cart: Cart) {
        super.init()
        NotificationCenter.default.addObserver(self, selector: #selector(cartChanged(_:)),
                                               name: .cartDidChange, object: cart)
    }

    @objc private func cartChanged(_ notification: Notification) {
        count = (notification.object as? Cart)?.items.count ?? 0
    }

    deinit {
        NotificationCenter.default.removeObserver(self)
    }
}
