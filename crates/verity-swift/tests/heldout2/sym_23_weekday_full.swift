import SwiftUI

struct DayHeader: View {
    let date: Date

    var body: some View {
        VStack(alignment: .leading) {
            Text(date.formatted(.dateTime.weekday(.full)))
                .font(.title2.weight(.semibold))
            Text(date.formatted(date: .long, time: .omitted))
                .foregroundStyle(.secondary)
        }
    }
}
