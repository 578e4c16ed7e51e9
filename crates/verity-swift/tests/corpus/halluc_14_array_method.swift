import Foundation

func summarize(_ values: [Int]) -> Int {
    let numbers: [Int] = values
    let unique = numbers.uniqued()
    return unique.count
}
