import Foundation

func compute(_ x: Int) -> Int {
    let y = x * * 2
    return y +
}
