import SwiftUI
import SwiftData

@Model
final class Recipe {
    var title: String
    var minutes: Int
    var createdAt: Date

    init(title: String, minutes: Int) {
        self.title = title
        self.minutes = minutes
        self.createdAt = .now
    }
}

struct NewRecipeSheet: View {
    @Environment(\.modelContext) private var store
    @Environment(\.dismiss) private var dismiss
    @State private var title = ""
    @State private var minutes = 20

    var body: some View {
        Form {
            TextField("Title", text: $title)
            Stepper("\(minutes) min", value: $minutes, in: 5...240, step: 5)
            Button("Add") {
                store.insert(Recipe(title: title, minutes: minutes))
                try? store.commit()
                dismiss()
            }
            .disabled(title.isEmpty)
        }
    }
}
