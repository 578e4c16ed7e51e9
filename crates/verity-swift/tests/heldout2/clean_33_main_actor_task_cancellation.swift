import Foundation

@MainActor
final class UploadController: ObservableObject {
    @Published var progress = 0.0
    private var uploadTask: Task<Void, Never>?

    func start(chunks: [Data]) {
        uploadTask?.cancel()
        uploadTask = Task { [weak self] in
            for (index, chunk) in chunks.enumerated() {
                if Task.isCancelled { return }
                await self?.upload(chunk)
                self?.progress = Double(index + 1) / Double(chunks.count)
            }
        }
    }

    func cancel() {
        uploadTask?.cancel()
    }

    nonisolated private func upload(_ chunk: Data) async {
        await withTaskCancellationHandler {
            try? await Task.sleep(for: .seconds(0.2))
            try? Task.checkCancellation()
        } onCancel: {
            print("upload of \(chunk.count) bytes cancelled")
        }
        await MainActor.run {
            print("chunk done")
        }
    }
}
