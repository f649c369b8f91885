import ListPagination

extension Paginator {
    /// Waits until the status satisfies `predicate` (checked on the current status first).
    @discardableResult
    func waitForStatus(_ predicate: (PaginationStatus) -> Bool) async -> PaginationStatus {
        for await status in statuses() where predicate(status) {
            return status
        }
        return status
    }

    /// Waits until no load is running or waiting for a retry.
    @discardableResult
    func settle() async -> PaginationStatus {
        await waitForStatus { $0.state != .loading }
    }
}

/// A test error a loader can throw.
struct TestFailure: Error, Equatable, CustomStringConvertible {
    var description: String { "test failure" }
}
