import Foundation

final class BatchUploader {
    private let queue = DispatchQueue(label: "uploader", attributes: .concurrent)
    private let lock = NSLock()
    private var failures: [String] = []

    func upload(_ files: [String], completion: @escaping ([String]) -> Void) {
        let group = DispatchGroup()
        for file in files {
            group.enter()
            queue.async {
                defer { group.leave() }
                if !self.send(file) {
                    self.lock.lock()
                    self.failures.append(file)
                    self.lock.unlock()
                }
            }
        }
        group.notify(queue: .main) {
            completion(self.failures)
        }
    }

    private func send(_ file: String) -> Bool {
        Thread.sleep(forTimeInterval: 0.05)
        return !file.hasSuffix(".tmp")
    }
}
