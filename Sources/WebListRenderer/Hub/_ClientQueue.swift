/// One entry of a client's queue: an encoded batch, or a snapshot still to be formatted.
enum _ClientEntry<Snapshot> {
    case frame(WebListFrame)
    case snapshot(Snapshot)
}

extension _ClientEntry: Sendable where Snapshot: Sendable {}

/// The outgoing queue of one hub client, as a value-type state machine.
///
/// The hub feeds it events (`snapshot`, `batch`, `finish`) and the client's consumer
/// asks for the next entry (`next`). It never performs I/O and never resumes anything
/// itself: every event returns an action naming the waiter to resume, which the hub does
/// after releasing its lock.
///
/// The queue is bounded. When a batch would push it past `limits` (entries or bytes), the
/// whole queue is dropped and replaced with one snapshot entry of the latest version: a
/// slow client skips ahead instead of holding memory or delaying the others. Snapshot
/// entries hold a `Snapshot` value (cheap to hold, formatted only when consumed), so a
/// reset costs O(1) under the hub's lock.
///
/// Invariants: a waiter is stored only while nothing is pending; a batch is only queued
/// after a snapshot (a client never sees a batch it has no base for).
struct _ClientQueue<Snapshot, Waiter> {
    typealias Entry = _ClientEntry<Snapshot>

    struct Limits: Hashable {
        var entries: Int
        var bytes: Int
    }

    fileprivate enum State {
        /// No snapshot yet: batches are dropped; the consumer may be waiting.
        case waitingForSnapshot(waiter: Waiter?)
        /// Streaming: entries not yet taken, or the consumer waiting for one. Entries
        /// before `head` have been taken; their slots are emptied at once (so a taken
        /// frame is not held) and dropped when the array is compacted.
        case streaming(pending: [Entry?], head: Int, bytes: Int, waiter: Waiter?)
        case finished
    }

    /// Resume `waiter` with an entry, or nothing to do.
    enum DeliverAction {
        case none
        case resume(Waiter, Entry)
    }

    /// What the consumer's `next` gets.
    enum NextAction {
        /// Hand this entry over at once.
        case deliver(Entry)
        /// Nothing pending: the waiter was stored and is resumed by a later event.
        case suspend
        /// The client is finished: hand over `nil`.
        case finished
    }

    private var state: State = .waitingForSnapshot(waiter: nil)
    let limits: Limits
    /// How often the queue was dropped for a snapshot because the consumer fell behind.
    private(set) var resets = 0

    init(limits: Limits) {
        precondition(limits.entries >= 1, "a client queue must hold at least one entry")
        self.limits = limits
    }

    /// Entries waiting to be taken.
    var pendingCount: Int {
        if case .streaming(let pending, let head, _, _) = state { return pending.count - head }
        return 0
    }

    /// Entries the queue holds: those waiting to be taken, and no taken one.
    var heldCount: Int {
        if case .streaming(let pending, _, _, _) = state { return pending.count { $0 != nil } }
        return 0
    }

    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    // MARK: Events from the hub

    /// The client must (re)start from `snapshot`: on joining, on the hub's first batch,
    /// or when the list's versions do not continue. Drops everything pending.
    mutating func snapshot(_ snapshot: Snapshot) -> DeliverAction {
        switch state {
        case .waitingForSnapshot(let waiter?), .streaming(_, _, _, let waiter?):
            state = .streaming(pending: [], head: 0, bytes: 0, waiter: nil)
            return .resume(waiter, .snapshot(snapshot))
        case .waitingForSnapshot(nil), .streaming(_, _, _, nil):
            state = .streaming(pending: [.snapshot(snapshot)], head: 0, bytes: 0, waiter: nil)
            return .none
        case .finished:
            return .none
        }
    }

    /// A batch frame that continues the stream. `latest` is the snapshot the frame leads
    /// to; it replaces the queue when the frame would exceed the limits.
    mutating func batch(_ frame: WebListFrame, latest: @autoclosure () -> Snapshot) -> DeliverAction {
        switch state {
        case .waitingForSnapshot, .finished:
            return .none
        case .streaming(_, _, _, let waiter?):
            state = .streaming(pending: [], head: 0, bytes: 0, waiter: nil)
            return .resume(waiter, .frame(frame))
        case .streaming(var pending, let head, let bytes, nil):
            let count = pending.count - head
            if count + 1 > limits.entries || bytes + frame.byteCount > limits.bytes {
                resets += 1
                state = .streaming(pending: [.snapshot(latest())], head: 0, bytes: 0, waiter: nil)
                return .none
            }
            state = .finished  // release `pending` so the append does not copy
            pending.append(.frame(frame))
            state = .streaming(pending: pending, head: head, bytes: bytes + frame.byteCount, waiter: nil)
            return .none
        }
    }

    /// Ends the client: pending entries are dropped and a waiting consumer gets `nil`.
    mutating func finish() -> Waiter? {
        defer { state = .finished }
        switch state {
        case .waitingForSnapshot(let waiter), .streaming(_, _, _, let waiter): return waiter
        case .finished: return nil
        }
    }

    // MARK: Events from the consumer

    /// The consumer wants the next entry; `waiter` is stored when there is none yet.
    mutating func next(_ waiter: Waiter) -> NextAction {
        switch state {
        case .finished:
            return .finished
        case .waitingForSnapshot(let existing):
            precondition(existing == nil, "a hub subscription was iterated by two tasks at once")
            state = .waitingForSnapshot(waiter: waiter)
            return .suspend
        case .streaming(var pending, var head, var bytes, let existing):
            precondition(existing == nil, "a hub subscription was iterated by two tasks at once")
            guard head < pending.count else {
                state = .streaming(pending: [], head: 0, bytes: 0, waiter: waiter)
                return .suspend
            }
            state = .finished  // release `pending` so the edits below do not copy
            guard let entry = pending[head] else { preconditionFailure("a client queue entry was taken twice") }
            pending[head] = nil
            head += 1
            if case .frame(let frame) = entry { bytes -= frame.byteCount }
            if head == pending.count {
                pending.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 32 && head * 2 >= pending.count {
                pending.removeFirst(head)
                head = 0
            }
            state = .streaming(pending: pending, head: head, bytes: bytes, waiter: nil)
            return .deliver(entry)
        }
    }
}

extension _ClientQueue: Sendable where Snapshot: Sendable, Waiter: Sendable {}
extension _ClientQueue.State: Sendable where Snapshot: Sendable, Waiter: Sendable {}
