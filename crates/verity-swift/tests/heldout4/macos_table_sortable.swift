import SwiftUI

struct Contributor: Identifiable {
    let id: Int
    let login: String
    let commits: Int
}

struct ContributorsTable: View {
    let contributors: [Contributor]

    var body: some View {
        Table(contributors) {
            TableColumn("Login", value: \.login)
                .width(min: 120, ideal: 160)
            TableColumn("Commits") { row in
                Text(row.commits, format: .number)
            }
            .sortable(true)
        }
        .frame(minWidth: 400, minHeight: 300)
    }
}
