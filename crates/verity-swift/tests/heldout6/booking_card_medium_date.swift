import SwiftUI

struct Booking {
    var guestName: String
    var checkIn: Date
    var nights: Int
}

struct BookingCard: View {
    let booking: Booking

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text(booking.guestName)
                .font(.title3.bold())
            Label(booking.checkIn.formatted(date: .medium, time: .omitted), systemImage: "calendar")
            Label("\(booking.nights) nights", systemImage: "moon.stars")
                .foregroundStyle(.secondary)
        }
        .padding()
        .background(.thinMaterial, in: RoundedRectangle(cornerRadius: 12))
    }
}
