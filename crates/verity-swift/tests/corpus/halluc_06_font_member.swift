import SwiftUI

struct Title: View {
    var body: some View {
        Text("Welcome")
            .font(.largeTitleBold)
            .padding()
    }
}
