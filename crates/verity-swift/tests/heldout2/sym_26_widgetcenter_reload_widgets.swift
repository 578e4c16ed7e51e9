import WidgetKit
import Foundation

struct CounterStore {
    private let defaults = UserDefaults(suiteName: "group.com.example.counter")

    var value: Int {
        defaults?.integer(forKey: "count") ?? 0
    }

    func increment() {
        defaults?.set(value + 1, forKey: "count")
        WidgetCenter.shared.reloadWidgets()
    }
}
