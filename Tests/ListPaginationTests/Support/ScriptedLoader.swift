import ListPagination
import ListTestSupport

/// A loader whose requests wait until the test answers them, one by one.
///
/// `nextRequest()` suspends until the paginator has asked for a page and hands the test
/// that request, which it answers with `succeed` or `fail`. With `honorsCancellation`
/// off, a cancelled request keeps waiting for its answer, so a test can deliver a
/// response that arrives after the paginator moved on.
final class ScriptedLoader: PageLoader, Sendable {
    typealias Item = TestRow
    typealias Cursor = Int

    /// One load call waiting for its answer.
    struct Request: Sendable {
        let cursor: Int?
        fileprivate let id: Int
        fileprivate let loader: ScriptedLoader

        /// Answers with rows `ids` (key = id) and the next cursor.
        func succeed(ids: Range<Int>, next: Int?) {
            succeed(ids.map { TestRow(id: $0, key: $0) }, next: next)
        }

        func succeed(_ rows: [TestRow], next: Int?, previous: Int? = nil) {
            loader.answer(id, with: .success(Page(items: rows, nextCursor: next, previousCursor: previous)))
        }

        /// Answers with rows `ids` (key = id), the next and the previous cursor.
        func succeed(ids: Range<Int>, next: Int?, previous: Int?) {
            succeed(ids.map { TestRow(id: $0, key: $0) }, next: next, previous: previous)
        }

        func fail(_ error: any Error) {
            loader.answer(id, with: .failure(error))
        }
    }

    private struct State {
        var nextID = 0
        var waiting: [Int: (cursor: Int?, continuation: CheckedContinuation<Page<TestRow, Int>, any Error>)] = [:]
        /// Requests not yet handed to the test, in arrival order.
        var unclaimed: [Request] = []
        var claimers: [CheckedContinuation<Request, Never>] = []
        var history: [Int?] = []
        /// Cancelled before they started waiting.
        var cancelledEarly: Set<Int> = []
    }

    private let state = LockedState(State())
    let honorsCancellation: Bool

    init(honorsCancellation: Bool = true) {
        self.honorsCancellation = honorsCancellation
    }

    /// Every cursor requested so far (`nil` = first page).
    var requestedCursors: [Int?] { state.withLock { $0.history } }

    /// Requests made but not yet answered.
    var unansweredCount: Int { state.withLock { $0.waiting.count } }

    func loadPage(at cursor: Int?) async throws -> Page<TestRow, Int> {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.history.append(cursor)
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (claimer, cancelled): (CheckedContinuation<Request, Never>?, Bool) = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return (nil, true) }
                    state.waiting[id] = (cursor, continuation)
                    let request = Request(cursor: cursor, id: id, loader: self)
                    if state.claimers.isEmpty {
                        state.unclaimed.append(request)
                        return (nil, false)
                    }
                    return (state.claimers.removeFirst(), false)
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
                claimer?.resume(returning: Request(cursor: cursor, id: id, loader: self))
            }
        } onCancel: {
            guard honorsCancellation else { return }
            let waiting = state.withLock { state in
                if state.waiting[id] == nil { state.cancelledEarly.insert(id) }
                return state.waiting[id] != nil
            }
            if waiting { answer(id, with: .failure(CancellationError())) }
        }
    }

    /// The next request the paginator makes (or made and nobody claimed yet).
    func nextRequest() async -> Request {
        await withCheckedContinuation { continuation in
            let request: Request? = state.withLock { state in
                if state.unclaimed.isEmpty {
                    state.claimers.append(continuation)
                    return nil
                }
                return state.unclaimed.removeFirst()
            }
            if let request { continuation.resume(returning: request) }
        }
    }

    fileprivate func answer(_ id: Int, with result: Result<Page<TestRow, Int>, any Error>) {
        let continuation = state.withLock { state in
            state.unclaimed.removeAll { $0.id == id }
            return state.waiting.removeValue(forKey: id)?.continuation
        }
        continuation?.resume(with: result)
    }
}
