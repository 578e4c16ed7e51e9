import Foundation

func wait() async {
    await Task.sleep(1_000_000_000)
    print("waited")
}
