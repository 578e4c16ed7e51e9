import UIKit

final class LegacyWebController: UIViewController {
    let webView = UIWebView()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(webView)
    }
}
