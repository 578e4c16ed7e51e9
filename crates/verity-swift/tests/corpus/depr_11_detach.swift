import Foundation

func kickOff() {
    detach {
        print("background work")
    }
}
