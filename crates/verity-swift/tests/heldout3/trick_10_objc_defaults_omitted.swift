import UIKit

final class ExportViewController: UIViewController {
    private let exportFolder = FileManager.default.temporaryDirectory.appendingPathComponent("exports")

    @objc func exportTapped() {
        do {
            try FileManager.default.createDirectory(at: exportFolder, withIntermediateDirectories: true)
            let files = try FileManager.default.contentsOfDirectory(at: exportFolder, includingPropertiesForKeys: nil)
            let alert = UIAlertController(title: "Exported", message: "\(files.count) files", preferredStyle: .alert)
            alert.addAction(UIAlertAction(title: "OK", style: .default))
            present(alert, animated: true)
        } catch {
            navigationController?.popViewController(animated: true)
        }
    }
}
