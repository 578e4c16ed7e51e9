import SwiftUI

struct ZipLookup: View {
    @State private var zip = ""
    @State private var city = ""
    @State private var history: [String] = []

    var body: some View {
        Form {
            TextField("ZIP code", text: $zip)
                .keyboardType(.numberPad)
            LabeledContent("City", value: city)
        }
        .onChange(of: zip, initial: false) { oldValue, newValue in
            if oldValue.count == 5 { history.append(oldValue) }
            city = newValue.count == 5 ? "Looking up…" : ""
        }
        .task(id: zip) {
            guard zip.count == 5 else { return }
            try? await Task.sleep(for: .milliseconds(400))
            city = "Springfield"
        }
    }
}
