import Foundation

func count(_ s: String) -> Int {
    let text: String = s
    return text.characters.count
}
