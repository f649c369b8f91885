/// When a connection that has no request in progress is closed, as a value-type state
/// machine: the timeouts of ``ConnectionTimeoutHandler``, which performs its actions.
///
/// A connection is *waiting* while it has no request whose head has arrived and whose
/// response has not ended. While waiting it has one deadline:
///
/// - **header**: from the moment the connection opens, or from the first byte of a later
///   request, the whole request head must arrive within `header`. Bytes that trickle in
///   do not move this deadline, so a client that sends half a head, or one byte now and
///   then, is closed on time.
/// - **idle**: after a response ends, the next request must start (its first byte
///   arrive) within `idle`; then the header deadline applies.
///
/// Once a request head has arrived the connection has no deadline until its response
/// ends, however long that takes: an event stream is never cut.
struct ConnectionDeadline {
    /// What the connection is waiting for.
    private enum State {
        /// A request head, which must be complete by the header deadline.
        case head
        /// The first byte of the next request, by the idle deadline.
        case nextRequest
        /// Nothing: `count` requests have a head and a response that has not ended.
        case requests(count: Int)
    }

    /// What the handler does after an event.
    enum Action: Equatable {
        /// Nothing changes.
        case none
        /// Replace the pending deadline, if any, with one this long from now.
        case schedule(Duration)
        /// Cancel the pending deadline.
        case cancel
    }

    private var state = State.head
    let header: Duration
    let idle: Duration

    init(header: Duration, idle: Duration) {
        self.header = header
        self.idle = idle
    }

    /// The connection opened: its first request head is due within `header`.
    func connected() -> Action {
        .schedule(header)
    }

    /// Bytes arrived (whether or not they completed a request head).
    mutating func bytesArrived() -> Action {
        guard case .nextRequest = state else { return .none }
        state = .head
        return .schedule(header)
    }

    /// A whole request head arrived.
    mutating func requestHeadArrived() -> Action {
        switch state {
        case .head, .nextRequest:
            state = .requests(count: 1)
            return .cancel
        case .requests(let count):
            state = .requests(count: count + 1)
            return .none
        }
    }

    /// A response ended. (A response without a request head, such as the 400 answer to
    /// a head that does not parse, counts as the end of nothing.)
    mutating func responseEnded() -> Action {
        guard case .requests(let count) = state else { return .none }
        if count > 1 {
            state = .requests(count: count - 1)
            return .none
        }
        state = .nextRequest
        return .schedule(idle)
    }

    /// The pending deadline passed.
    ///
    /// - Returns: whether to close the connection: whether it is still waiting.
    func deadlinePassed() -> Bool {
        if case .requests = state { return false }
        return true
    }
}
