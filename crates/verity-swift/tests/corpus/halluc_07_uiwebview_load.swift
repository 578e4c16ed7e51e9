import UIKit
import WebKit

final class WebVC: UIViewController {
    let webView = WKWebView()

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(webView)
        webView.frame = view.bounds
        webView.loadURLString("https://apple.com")
    }
}
