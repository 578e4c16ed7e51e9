import SwiftUI

struct Appointment: Identifiable {
    let id = UUID()
    let title: String
    let start: Date
}

struct AppointmentRow: View {
    let appointment: Appointment

    var body: some View {
        HStack {
            VStack(alignment: .leading) {
                Text(appointment.title)
                    .font(.headline)
                Text(appointment.start.formatted(date: .medium, time: .omitted))
                    .font(.subheadline)
                    .foregroundStyle(.secondary)
            }
            Spacer()
            Text(appointment.start, format: .dateTime.hour().minute())
                .monospacedDigit()
        }
    }
}
