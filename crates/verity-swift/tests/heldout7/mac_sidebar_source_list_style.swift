import SwiftUI

struct Project: Identifiable, Hashable {
    let id = UUID()
    let name: String
    let color: Color
}

struct ProjectsSidebar: View {
    let projects: [Project]
    @State private var selected: Project?

    var body: some View {
        NavigationSplitView {
            List(projects, selection: $selected) { project in
                Label {
                    Text(project.name)
                } icon: {
                    Circle().fill(project.color).frame(width: 10, height: 10)
                }
                .tag(project)
            }
            .listStyle(.source)
            .navigationSplitViewColumnWidth(min: 180, ideal: 220)
        } detail: {
            Text(selected?.name ?? "No project selected")
                .font(.title)
        }
    }
}
