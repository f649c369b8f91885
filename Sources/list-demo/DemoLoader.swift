import LeaderboardFixtures
import ListPagination

/// Makes loads fail on demand: the demo's `f` key.
final class FailureSwitch: Sendable {
    private let pending = LockedState(0)

    /// Makes the next `count` load attempts fail.
    func arm(_ count: Int) {
        pending.withLock { $0 = count }
    }

    /// Whether this attempt fails; uses up one armed failure.
    func takeFailure() -> Bool {
        pending.withLock { pending in
            guard pending > 0 else { return false }
            pending -= 1
            return true
        }
    }
}

/// A loader that waits a simulated latency before each load, and fails the loads the
/// ``FailureSwitch`` asks to fail.
struct DemoLoader<Base: PageLoader>: PageLoader {
    let base: Base
    let latency: Duration
    let failures: FailureSwitch

    func loadPage(at cursor: Base.Cursor?) async throws -> Page<Base.Item, Base.Cursor> {
        if latency > .zero {
            try await Task.sleep(for: latency)
        }
        if failures.takeFailure() {
            throw PaginationError.transport(url: nil, description: "simulated network failure (f)")
        }
        return try await base.loadPage(at: cursor)
    }
}
