import UIKit
import UserNotifications

final class ExportViewController: UIViewController {
    func export(_ csv: String) throws {
        let folder = URL.documentsDirectory.appending(path: "Exports", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "report.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)

        let content = UNMutableNotificationContent()
        content.title = "Export finished"
        content.body = file.lastPathComponent
        UNUserNotificationCenter.current().add(
            UNNotificationRequest(identifier: "export", content: content, trigger: nil)
        )

        let picker = UIDocumentPickerViewController(forExporting: [file])
        present(picker, animated: true)

        let banner = UILabel()
        banner.attributedText = NSAttributedString(string: "Saved \(file.lastPathComponent)")
        navigationItem.titleView = banner
    }
}
