import Foundation

let template = """
    struct Fake: View {
        var body: some View { NavigationStackView { Text("x").textColor(.red) } }
    }
    """
let snippet = #"UIApplication.shared.openURL(URL(string: "x")!)"#
print(template.count + snippet.count)
