import SwiftUI
import Observation

@Observable
final class ProfileStore {
    var displayName = ""
    var bio = ""
    var isSaving = false

    func save() async {
        isSaving = true
        try? await Task.sleep(for: .seconds(1))
        isSaving = false
    }
}

struct ProfileEditor: View {
    @Bindable var store: ProfileStore
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        Form {
            TextField("Display name", text: $store.displayName)
            TextField("Bio", text: $store.bio, axis: .vertical)
                .lineLimit(3...6)
        }
        .toolbar {
            ToolbarItem(placement: .confirmationAction) {
                Button("Save") {
                    Task {
                        await store.save()
                        dismiss.dismissView()
                    }
                }
                .disabled(store.isSaving)
            }
        }
    }
}
