import SwiftUI

struct TermsFooter: View {
    var body: some View {
        let prefix = Text("By continuing you agree to our ")
        let terms = Text("Terms").bold().foregroundColor(.blue)
        let suffix = Text(" and ")
        let privacy = Text("Privacy Policy").bold()
        return (prefix + terms + suffix + privacy)
            .font(.footnote)
            .multilineTextAlignment(.center)
            .padding(.horizontal)
    }
}

struct SignUpFooter: View {
    var onContinue: () -> Void

    var body: some View {
        VStack(spacing: 12) {
            Button("Continue", action: onContinue)
                .buttonStyle(.borderedProminent)
            TermsFooter()
        }
    }
}
