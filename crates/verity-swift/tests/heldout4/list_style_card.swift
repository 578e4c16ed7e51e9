import SwiftUI

struct MessagesList: View {
    let messages: [String]

    var body: some View {
        List(messages, id: \.self) { message in
            Text(message)
                .lineLimit(2)
        }
        .listStyle(.card)
        .navigationTitle("Messages")
    }
}
