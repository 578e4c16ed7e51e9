import Foundation

func totalPrice(of items: [Double]) -> Double {
    var total = 0.0
    for item in items:
        total += item
    return total
}
