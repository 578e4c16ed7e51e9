import Foundation

struct EmailTemplate {
    let name: String
    let orderNumber: Int

    var body: String {
        """
        Hi \(name),

        Thanks for your order #\(orderNumber). We'll let you know when it ships.

        — The Shop Team
    }

    var subject: String {
        "Order #\(orderNumber) confirmed"
    }
}

let mail = EmailTemplate(name: "Sam", orderNumber: 1042)
print(mail.subject)
