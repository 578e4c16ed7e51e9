import UIKit

final class HighlightingTextView: UITextView {
    var highlightTerm = "" {
        didSet { applyHighlighting() }
    }

    func applyHighlighting() {
        let text = self.text ?? ""
        let font = UIFont.preferredFont(forTextStyle: .body)
        let paragraph = NSMutableParagraphStyle()
        paragraph.lineSpacing = 4
        let styled = NSMutableAttributedString(string: text, attributes: [
            .font: font,
            .foregroundColor: UIColor.label,
            .paragraphStyle: paragraph,
        ])
        if !highlightTerm.isEmpty {
            var searchStart = text.startIndex
            while let range = text.range(of: highlightTerm, options: .caseInsensitive, range: searchStart..<text.endIndex) {
                styled.addAttribute(.backgroundColor, value: UIColor.systemYellow, range: NSRange(range, in: text))
                searchStart = range.upperBound
            }
        }
        textContainerInset = UIEdgeInsets(top: 12, left: 8, bottom: 12, right: 8)
        attributedText = styled
    }
}
