import SwiftUI

protocol Repository {
    associatedtype Model
    func all() -> [Model]
    func fetchRemote() async throws -> [Model]
}

struct MemoryRepo<Element>: Repository {
    var storage: [Element] = []
    func all() -> [Element] { storage }
    func fetchRemote() async throws -> [Element] { storage }
}

struct GenericList<Content: View, Item: Identifiable>: View {
    let items: [Item]
    @ViewBuilder let row: (Item) -> Content

    var body: some View {
        List(items) { item in
            row(item)
        }
    }
}

func transform<T, U>(_ values: [T], _ f: (T) -> U) -> [U] {
    values.map(f).compactMap { $0 }
}

let doubled = transform([1, 2, 3]) { $0 * 2 }
let sorted = doubled.sorted(by: >).prefix(2)
let total = doubled.reduce(0, +)
