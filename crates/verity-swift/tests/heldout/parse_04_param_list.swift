import Foundation

struct RateLimiter {
    private var timestamps: [Date] = []
    let limit: Int
    let window: TimeInterval

    init(limit: Int window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    mutating func allow(now: Date = .now) -> Bool {
        timestamps.removeAll { now.timeIntervalSince($0) > window }
        guard timestamps.count < limit else { return false }
        timestamps.append(now)
        return true
    }
}

var limiter = RateLimiter(limit: 3, window: 1)
print((0..<5).map { _ in limiter.allow() })
