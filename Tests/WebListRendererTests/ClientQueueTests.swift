import Testing
@testable import WebListRenderer

/// Drives the client queue state machine event by event, with integers for snapshots and
/// strings for waiters.
@Suite("_ClientQueue")
struct ClientQueueTests {
    typealias Queue = _ClientQueue<Int, String>

    static func frame(_ to: Int, bytes: Int = 10) -> WebListFrame {
        WebListFrame(.batch(from: to - 1, to: to, steps: [.insert(WebListRow(id: "x", html: String(repeating: "h", count: bytes)), at: 0)]))
    }

    /// A readable form of an entry.
    static func describe(_ entry: _ClientEntry<Int>?) -> String {
        switch entry {
        case .frame(let frame)?: "batch \(frame.version)"
        case .snapshot(let version)?: "snapshot \(version)"
        case nil: "nil"
        }
    }

    static func take(_ queue: inout Queue) -> String {
        switch queue.next("reader") {
        case .deliver(let entry): describe(entry)
        case .suspend: "suspend"
        case .finished: "finished"
        }
    }

    static func describe(_ action: Queue.DeliverAction) -> String {
        switch action {
        case .none: "none"
        case .resume(let waiter, let entry): "resume \(waiter) with \(describe(entry))"
        }
    }

    @Test func aWaitingReaderGetsTheFirstSnapshot() {
        var queue = Queue(limits: .init(entries: 4, bytes: 1_000))
        #expect(Self.take(&queue) == "suspend")
        #expect(Self.describe(queue.batch(Self.frame(1), latest: 1)) == "none", "no batch before a snapshot")
        #expect(Self.describe(queue.snapshot(3)) == "resume reader with snapshot 3")
        #expect(Self.take(&queue) == "suspend")
        #expect(Self.describe(queue.batch(Self.frame(4), latest: 4)) == "resume reader with batch 4")
        #expect(queue.pendingCount == 0)
    }

    @Test func entriesAreDeliveredInOrder() {
        var queue = Queue(limits: .init(entries: 100, bytes: 100_000))
        _ = queue.snapshot(0)
        for version in 1 ... 80 { _ = queue.batch(Self.frame(version), latest: version) }
        #expect(queue.pendingCount == 81)
        #expect(Self.take(&queue) == "snapshot 0")
        for version in 1 ... 50 { #expect(Self.take(&queue) == "batch \(version)") }
        for version in 81 ... 90 { _ = queue.batch(Self.frame(version), latest: version) }
        for version in 51 ... 90 { #expect(Self.take(&queue) == "batch \(version)") }
        #expect(Self.take(&queue) == "suspend")
        #expect(queue.resets == 0)
    }

    @Test func aTakenEntryIsNotHeldUntilTheQueueIsCompacted() {
        var queue = Queue(limits: .init(entries: 100, bytes: 100_000))
        _ = queue.snapshot(0)
        for version in 1 ... 40 { _ = queue.batch(Self.frame(version, bytes: 1_000), latest: version) }
        #expect(Self.take(&queue) == "snapshot 0")
        for version in 1 ... 30 { #expect(Self.take(&queue) == "batch \(version)") }
        // 31 taken, 10 waiting: only the 10 frames are held, whenever the array compacts.
        #expect(queue.pendingCount == 10)
        #expect(queue.heldCount == 10)
        for version in 31 ... 40 { #expect(Self.take(&queue) == "batch \(version)") }
        #expect(queue.heldCount == 0)
    }

    @Test func aFullQueueIsReplacedWithTheLatestSnapshot() {
        var queue = Queue(limits: .init(entries: 3, bytes: 1_000))
        _ = queue.snapshot(0)
        _ = queue.batch(Self.frame(1), latest: 1)
        _ = queue.batch(Self.frame(2), latest: 2)
        #expect(queue.pendingCount == 3 && queue.resets == 0)
        _ = queue.batch(Self.frame(3), latest: 3)
        #expect(queue.pendingCount == 1 && queue.resets == 1)
        _ = queue.batch(Self.frame(4), latest: 4)
        #expect(Self.take(&queue) == "snapshot 3")
        #expect(Self.take(&queue) == "batch 4")
        #expect(Self.take(&queue) == "suspend")
    }

    @Test func theByteLimitAlsoResets() {
        let size = Self.frame(1, bytes: 200).byteCount
        var queue = Queue(limits: .init(entries: 100, bytes: 2 * size + size / 2))
        _ = queue.snapshot(0)
        _ = queue.batch(Self.frame(1, bytes: 200), latest: 1)
        _ = queue.batch(Self.frame(2, bytes: 200), latest: 2)
        #expect(queue.resets == 0)
        _ = queue.batch(Self.frame(3, bytes: 200), latest: 3)
        #expect(queue.resets == 1 && queue.pendingCount == 1)
        #expect(Self.take(&queue) == "snapshot 3")
        // Taking frames gives their bytes back.
        _ = queue.batch(Self.frame(4, bytes: 200), latest: 4)
        _ = queue.batch(Self.frame(5, bytes: 200), latest: 5)
        #expect(Self.take(&queue) == "batch 4")
        _ = queue.batch(Self.frame(6, bytes: 200), latest: 6)
        #expect(queue.resets == 1)
    }

    @Test func aSnapshotDropsWhatIsPending() {
        var queue = Queue(limits: .init(entries: 10, bytes: 10_000))
        _ = queue.snapshot(0)
        _ = queue.batch(Self.frame(1), latest: 1)
        _ = queue.snapshot(7)
        #expect(queue.pendingCount == 1)
        #expect(Self.take(&queue) == "snapshot 7")
    }

    @Test func finishResumesTheReaderAndEndsTheQueue() {
        var queue = Queue(limits: .init(entries: 10, bytes: 10_000))
        _ = queue.snapshot(0)
        #expect(Self.take(&queue) == "snapshot 0")
        #expect(Self.take(&queue) == "suspend")
        #expect(queue.finish() == "reader")
        #expect(queue.isFinished)
        #expect(Self.take(&queue) == "finished")
        #expect(Self.describe(queue.batch(Self.frame(1), latest: 1)) == "none")
        #expect(Self.describe(queue.snapshot(1)) == "none")
        #expect(queue.finish() == nil)
    }
}
