import SwiftUI

struct MapDrawer: View {
    @State private var showDrawer = true
    @State private var detent: PresentationDetent = .medium

    var body: some View {
        let medium = "Half"
        let large = "Full"

        Color.teal.opacity(0.3)
            .ignoresSafeArea()
            .sheet(isPresented: $showDrawer) {
                VStack(spacing: 12) {
                    Text(detent == .large ? large : medium)
                        .font(.headline)
                    Picker("Size", selection: $detent) {
                        Text(medium).tag(PresentationDetent.medium)
                        Text(large).tag(PresentationDetent.large)
                    }
                    .pickerStyle(.segmented)
                }
                .padding()
                .presentationDetents([.medium, .large], selection: $detent)
                .interactiveDismissDisabled()
            }
    }
}
