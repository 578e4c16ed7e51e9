import AppKit

final class WindowController: NSWindowController {
    override func windowDidLoad() {
        super.windowDidLoad()
        window?.title = "Main"
        let button = NSButton(title: "OK", target: nil, action: nil)
        window?.contentView?.addSubview(button)
    }
}
