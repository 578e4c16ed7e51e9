import SwiftUI

struct Profile: View {
    @StateStore private var name = ""

    var body: some View {
        TextField("Name", text: $name)
    }
}
