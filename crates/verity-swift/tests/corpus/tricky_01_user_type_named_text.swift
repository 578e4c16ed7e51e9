import SwiftUI

// A user type that shadows SwiftUI's Text: its members are the user's, not the SDK's.
struct Text {
    let raw: String
    init(_ raw: String) { self.raw = raw }
    func shout() -> String { raw.uppercased() + "!" }
    func whisper() -> String { raw.lowercased() }
}

func greet() -> String {
    let t = Text("hello")
    return t.shout() + Text("X").whisper()
}
