import SwiftUI

struct WebsiteField: View {
    @Binding var website: String

    var body: some View {
        VStack(alignment: .leading) {
            TextField("https://", text: $website)
                .textInputAutocapitalization(.none)
                .keyboardType(.URL)
                .autocorrectionDisabled()
            TextField("Handle", text: .constant(""))
                .textInputAutocapitalization(.never)
        }
    }
}
