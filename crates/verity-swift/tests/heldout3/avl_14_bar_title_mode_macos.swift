import SwiftUI

struct ProjectDetail: View {
    let name: String
    let tasks: [String]

    var body: some View {
        List(tasks, id: \.self) { task in
            Label(task, systemImage: "circle")
        }
        .navigationTitle(name)
        .navigationBarTitleDisplayMode(.inline)
        .frame(minWidth: 360)
    }
}
