import Foundation

struct PhoneNumberNormalizer {
    private let nonDigits = /[^0-9+]/

    func normalize(_ raw: String) -> String? {
        let digits = raw.replacingMatches(of: nonDigits, with: "")
        guard digits.count >= 7 else { return nil }
        if digits.hasPrefix("+") { return digits }
        return "+1" + digits
    }

    func isValid(_ raw: String) -> Bool {
        raw.wholeMatch(of: /\+?[0-9 ()-]{7,20}/) != nil
    }
}
