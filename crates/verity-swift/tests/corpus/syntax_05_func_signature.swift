import Foundation

func fetch(url: URL -> Data {
    return Data()
}
