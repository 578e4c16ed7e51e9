import SwiftUI

struct TagEditor: View {
    @State private var tags: [String] = []
    @State private var title = ""
    var dismiss: () -> Void = {}

    private func insert(_ tag: String) {
        guard !tag.isEmpty, !tags.contains(tag) else { return }
        tags.append(tag)
    }

    var body: some View {
        let count = tags.count
        let formatted = tags.joined(separator: ", ")
        VStack(alignment: .leading) {
            TextField("Tag", text: $title)
                .onSubmit {
                    insert(title)
                    title = ""
                }
            Text("\(count) tags: \(formatted)")
            Button("Done") { dismiss() }
        }
        .padding()
    }
}
