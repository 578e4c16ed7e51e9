import Foundation
import Alamofire

func fetch() {
    AF.request("https://example.com").responseDecodable(of: [String].self) { response in
        print(response.value ?? [])
    }
    let session = Session.default
    print(session)
}
