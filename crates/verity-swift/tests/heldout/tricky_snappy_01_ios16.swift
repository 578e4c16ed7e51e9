import SwiftUI

struct SegmentedTabs: View {
    let tabs = ["Day", "Week", "Month"]
    @State private var selected = "Day"
    @Namespace private var underline

    var body: some View {
        HStack(spacing: 0) {
            ForEach(tabs, id: \.self) { tab in
                Button {
                    withAnimation(.snappy) {
                        selected = tab
                    }
                } label: {
                    VStack(spacing: 6) {
                        Text(tab)
                            .fontWeight(selected == tab ? .semibold : .regular)
                        if selected == tab {
                            Capsule()
                                .frame(height: 3)
                                .matchedGeometryEffect(id: "underline", in: underline)
                        } else {
                            Capsule()
                                .fill(.clear)
                                .frame(height: 3)
                        }
                    }
                    .frame(maxWidth: .infinity)
                }
                .buttonStyle(.plain)
            }
        }
        .padding(.horizontal)
    }
}
