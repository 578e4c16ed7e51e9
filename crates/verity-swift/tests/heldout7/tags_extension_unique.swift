import SwiftUI

extension Sequence where Element: Hashable {
    func unique() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension Color {
    func darker(by amount: CGFloat = 0.2) -> Color {
        var h: CGFloat = 0, s: CGFloat = 0, b: CGFloat = 0, a: CGFloat = 0
        UIColor(self).getHue(&h, saturation: &s, brightness: &b, alpha: &a)
        return Color(uiColor: UIColor(hue: h, saturation: s, brightness: max(b - amount, 0), alpha: a))
    }
}

struct TagRow: View {
    let tags: [String]

    var body: some View {
        HStack {
            ForEach(tags.unique(), id: \.self) { tag in
                Text(tag)
                    .padding(6)
                    .background(Color.blue.opacity(0.15), in: Capsule())
                    .overlay { Capsule().stroke(Color.blue.darker(), lineWidth: 1) }
            }
        }
    }
}
