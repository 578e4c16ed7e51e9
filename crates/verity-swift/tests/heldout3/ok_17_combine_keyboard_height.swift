import UIKit
import Combine

final class KeyboardObserver {
    @Published private(set) var height: CGFloat = 0
    private var subscriptions = Set<AnyCancellable>()

    init(center: NotificationCenter = .default) {
        let shows = center.publisher(for: UIResponder.keyboardWillShowNotification)
            .compactMap { $0.userInfo?[UIResponder.keyboardFrameEndUserInfoKey] as? CGRect }
            .map(\.height)
        let hides = center.publisher(for: UIResponder.keyboardWillHideNotification)
            .map { _ in CGFloat(0) }
        Publishers.Merge(shows, hides)
            .removeDuplicates()
            .sink { [weak self] value in self?.height = value }
            .store(in: &subscriptions)
    }
}
