@testable import ListEngine
import ListTestSupport
import Testing

/// The hand-off state machine, driven one event at a time.
@Suite struct MutationPipelineTests {
    @Test("first submit schedules a drain; later ones join it; the drain empties it")
    func pipelineEvents() {
        var pipeline = _MutationPipeline<TestRow>()
        let first = pipeline.submit(.removeAll, at: 0)
        #expect(first == .scheduleDrain)
        let second = pipeline.submit(.add([TestRow(id: 1, key: 1)]), at: 0)
        #expect(second == .none)
        let taken = pipeline.next(at: 0).takenSteps
        #expect(taken?.count == 2)
        let duringDrain = pipeline.submit(.removeAll, at: 0)
        #expect(duringDrain == .none)  // still draining: this drain picks it up
        let takenAgain = pipeline.next(at: 0).takenSteps
        #expect(takenAgain?.count == 1)
        let empty = pipeline.next(at: 0)
        #expect(empty.isIdle)  // nothing lingers before the pipeline has once gone idle
        let afterIdle = pipeline.submit(.removeAll, at: 0)
        #expect(afterIdle == .scheduleDrain)
    }

    @Test("commands come out in submission order")
    func order() {
        var pipeline = _MutationPipeline<TestRow>()
        for id in 0..<10 { _ = pipeline.submit(.remove([id]), at: 0) }
        let steps = pipeline.next(at: 0).takenSteps
        guard let steps, steps.count == 1, case .edits(let run, mayGrow: true) = steps[0] else {
            Issue.record("consecutive removes are one run that may grow: \(String(describing: steps))")
            return
        }
        let ids = run.calls.compactMap { call -> Int? in
            if case .remove(let ids) = call { return ids.first }
            return nil
        }
        #expect(ids == Array(0..<10))
    }

    @Test("consecutive add and remove calls become one run; only a run taken last may grow")
    func grouping() {
        let sort: @Sendable (TestRow, TestRow) -> Bool = { $0.key > $1.key }
        let steps = _MutationPipeline<TestRow>.steps(of: [
            .add([TestRow(id: 1, key: 1)]), .remove([2]), .add([TestRow(id: 3, key: 3), TestRow(id: 4, key: 4)]),
            .removeAll,
            .remove([5]),
            .sort(sort), .replaceAll([TestRow(id: 6, key: 6)]),
            .update([1], { $0.payload += 1 }), .removeWhere({ $0.key == 1 }),
            .add([TestRow(id: 10, key: 10)]), .perform({ $0.add([TestRow(id: 11, key: 11)]) }),
            .add([TestRow(id: 7, key: 7)]), .remove([8, 9]),
        ])
        let shapes = steps.map { step -> String in
            switch step {
            case .edits(let run, let mayGrow): return "edits(\(run.calls.count) calls, \(run.count) rows\(mayGrow ? ", may grow" : ""))"
            case .removeAll: return "removeAll"
            case .replaceAll(let items): return "replaceAll(\(items.count))"
            case .sort: return "sort"
            case .update(let ids, _): return "update(\(ids.count))"
            case .removeWhere: return "removeWhere"
            case .perform: return "perform"
            case .attach: return "attach"
            case .flush: return "flush"
            }
        }
        #expect(shapes == [
            "edits(3 calls, 4 rows)", "removeAll", "edits(1 calls, 1 rows)", "sort", "replaceAll(1)",
            "update(1)", "removeWhere", "edits(1 calls, 1 rows)", "perform", "edits(2 calls, 3 rows, may grow)",
        ])
        let endsWithAnotherKind = _MutationPipeline<TestRow>.steps(of: [.remove([1]), .removeAll])
        guard case .edits(_, mayGrow: false) = endsWithAnotherKind[0] else {
            Issue.record("a run followed by another command may not grow: \(endsWithAnotherKind)")
            return
        }
        #expect(_MutationPipeline<TestRow>.steps(of: []).isEmpty)
    }

    @Test("a drain takes the add and remove calls that lead the pending commands, and no other")
    func leadingEdits() {
        var pipeline = _MutationPipeline<TestRow>()
        var run = _EditRun<TestRow>()
        let fromIdle = pipeline.takeLeadingEdits(into: &run)
        #expect(!fromIdle, "an idle pipeline has nothing")
        _ = pipeline.submit(.add([TestRow(id: 1, key: 1)]), at: 0)
        _ = pipeline.next(at: 0)
        let fromEmpty = pipeline.takeLeadingEdits(into: &run)
        #expect(!fromEmpty, "nothing pending")

        _ = pipeline.submit(.remove([7, 8]), at: 0)
        _ = pipeline.submit(.add([TestRow(id: 2, key: 2), TestRow(id: 3, key: 3)]), at: 0)
        _ = pipeline.submit(.removeAll, at: 0)
        _ = pipeline.submit(.add([TestRow(id: 4, key: 4)]), at: 0)
        let took = pipeline.takeLeadingEdits(into: &run)
        #expect(took)
        #expect(run.count == 4)
        guard run.calls.count == 2, case .remove(let ids) = run.calls[0], case .add(let items) = run.calls[1] else {
            Issue.record("taken: \(run.calls)")
            return
        }
        #expect(ids == [7, 8])
        #expect(items.map(\.id) == [2, 3])

        let tookAgain = pipeline.takeLeadingEdits(into: &run)
        #expect(!tookAgain, "a removeAll leads now")
        #expect(run.count == 4)
        let rest = pipeline.next(at: 0).takenSteps
        #expect(rest?.count == 2, "the removeAll and the add after it stay, in order")
        if let rest, case .removeAll = rest[0], case .edits(let run, mayGrow: true) = rest[1], case .add(let items) = run.calls[0] {
            #expect(items.map(\.id) == [4])
        } else {
            Issue.record("left: \(String(describing: rest))")
        }
        let nothing = pipeline.next(at: 0)
        #expect(nothing.isIdle)
        let afterIdle = pipeline.submit(.removeAll, at: 0)
        #expect(afterIdle == .scheduleDrain, "the pipeline went idle")
    }

    @Test("a drain lingers only after a call came soon after the last drain ran out of commands, and stops after a linger that caught nothing")
    func lingering() {
        let window = _Tuning.lingerNanoseconds
        var pipeline = _MutationPipeline<TestRow>()
        _ = pipeline.submit(.removeAll, at: 1_000)
        #expect(pipeline.next(at: 1_000).takenSteps?.count == 1)
        #expect(pipeline.next(at: 2_000).isIdle, "no call has come quickly yet: idle at once")

        // A call long after: still no lingering.
        let late = 2_000 + window
        #expect(pipeline.submit(.removeAll, at: late) == .scheduleDrain)
        #expect(pipeline.next(at: late).takenSteps?.count == 1)
        #expect(pipeline.next(at: late).isIdle)

        // A call within the window of the drain running out of commands (it went idle
        // then): the next drain lingers.
        let soon = late + window - 1
        #expect(pipeline.submit(.removeAll, at: soon) == .scheduleDrain)
        #expect(pipeline.next(at: soon).takenSteps?.count == 1)
        #expect(pipeline.next(at: soon).isPoll, "lingers")
        #expect(pipeline.next(at: soon + window - 1).isPoll, "until the window has passed")
        // A call while it lingers is taken by this drain: nothing is scheduled.
        #expect(pipeline.submit(.add([TestRow(id: 1, key: 1)]), at: soon + window) == .none)
        #expect(pipeline.next(at: soon + window).takenSteps?.count == 1)
        // That linger caught a call, so the drain lingers again, for a whole window.
        let caught = soon + window
        #expect(pipeline.next(at: caught + 1).isPoll)
        #expect(pipeline.next(at: caught + window).isPoll)
        #expect(pipeline.next(at: caught + 1 + window).isIdle, "the window has passed with nothing")

        // That linger caught nothing. A call just after it went idle came more than a
        // window after the drain ran out of commands, so a linger would not have caught
        // it either: the next drain goes idle at once.
        let after = caught + 1 + window + 10
        #expect(pipeline.submit(.removeAll, at: after) == .scheduleDrain)
        #expect(pipeline.next(at: after).takenSteps?.count == 1)
        #expect(pipeline.next(at: after).isIdle, "calls a window apart do not keep the drain polling")
        // Calls that come quickly again bring lingering back.
        #expect(pipeline.submit(.removeAll, at: after + 5) == .scheduleDrain)
        #expect(pipeline.next(at: after + 5).takenSteps?.count == 1)
        #expect(pipeline.next(at: after + 5).isPoll)
    }
}


extension _MutationPipeline.Next {
    /// The steps, when the drain is told to perform some.
    var takenSteps: [_MutationPipeline<Item>.Step]? {
        if case .steps(let steps) = self { return steps }
        return nil
    }

    var isPoll: Bool {
        if case .poll = self { return true }
        return false
    }

    var isIdle: Bool {
        if case .idle = self { return true }
        return false
    }
}

/// A row whose id, when it carries a hold, holds the diff queue the first time it is
/// hashed there: inside the reduction of the bulk run that adds it.
struct GatedRow: Hashable, DataSourceComparable, CustomStringConvertible {
    struct ID: Hashable, Sendable {
        var value: Int
        var hold: DiffQueueHold? = nil

        static func == (lhs: ID, rhs: ID) -> Bool { lhs.value == rhs.value }

        func hash(into hasher: inout Hasher) {
            hold?.holdOnce()
            hasher.combine(value)
        }
    }

    var id: ID
    var key: Int

    init(_ value: Int, key: Int, hold: DiffQueueHold? = nil) {
        id = ID(value: value, hold: hold)
        self.key = key
    }

    static func < (lhs: GatedRow, rhs: GatedRow) -> Bool { lhs.key < rhs.key }
    static func == (lhs: GatedRow, rhs: GatedRow) -> Bool { lhs.id == rhs.id && lhs.key == rhs.key }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
    var description: String { "#\(id.value)(\(key))" }
}

/// Calls made while the diff queue reduces a bulk run of `add` and `remove` calls.
@Suite struct LateCallTests {
    @Test("add and remove calls submitted while a bulk run is reduced join its batch; other commands wait")
    func lateCallsJoinTheBulkRun() async {
        let base = (0 ..< 2_000).map { GatedRow($0, key: $0 * 10) }
        let source = ListDataSource(base)
        let recorder = BatchRecorder<GatedRow>()
        source.attach(recorder)
        await source.flush()
        _ = recorder.take()

        let hold = DiffQueueHold()
        // 60 new rows, the last of which holds the diff queue while the run is reduced,
        // and 20 re-keyed ones: a bulk run (at least 32 ids, under an eighth of the rows) with no ties.
        var added = (0 ..< 60).map { GatedRow(10_000 + $0, key: $0 * 300 + 5) }
        added.append(GatedRow(20_000, key: 7, hold: hold))
        added += (0 ..< 20).map { GatedRow($0 * 50, key: 20_003 + $0 * 10) }
        source.add(added)
        hold.entered.wait()
        let removed = (0 ..< 30).map { GatedRow.ID(value: 1 + $0 * 60) }
        source.remove(ids: removed)
        let reKeyedAgain = GatedRow(50, key: -1)
        source.add([reKeyedAgain])
        source.sort(by: { $0.key > $1.key })
        hold.release.signal()
        await source.flush()

        let batches = recorder.take()
        #expect(batches.count == 2, "the two late calls join the add's batch; the sort makes its own")
        guard batches.count == 2 else { return }
        let joined = batches[0]
        #expect(joined.insertions.count == 61)
        #expect(joined.deletions.count == 30)
        var oracle = ListOracle<GatedRow>(sortedBy: <)
        oracle.add(base)
        oracle.add(added)
        oracle.remove(ids: removed)
        oracle.add([reKeyedAgain])
        #expect(Array(joined.new) == oracle.rows)
        var replayed = Array(joined.old)
        joined.apply(to: &replayed)
        #expect(replayed == oracle.rows)
        #expect(batches[1].new.first?.key == 20_193, "sorted after the joined calls")
        #expect(batches[1].new.last == reKeyedAgain)
    }
}

/// How a large bulk edit polls for a late call when none came while its run was reduced.
@Suite struct LateCallPollingTests {
    /// A clock that advances `step` nanoseconds per reading, and the polls made so far.
    final class Polls {
        var time: UInt64 = 1_000
        var yields = 0
        var takes = 0
        let step: UInt64

        init(step: UInt64) { self.step = step }

        func now() -> UInt64 {
            defer { time += step }
            return time
        }
    }

    @Test("polling ends when a call joins, when a command of another kind waits, or at the deadline")
    func pollingEnds() {
        // A call joins at the third poll.
        var polls = Polls(step: 10)
        var joined = _pollForLateCalls(until: 2_000, now: polls.now, yield: { polls.yields += 1 }) {
            polls.takes += 1
            return (polls.takes == 3, false)
        }
        #expect(joined && polls.takes == 3 && polls.yields == 3, "each poll gives the core away first")

        // Another command is pending: nothing after it may join, so polling stops.
        polls = Polls(step: 10)
        joined = _pollForLateCalls(until: 2_000, now: polls.now, yield: {}) {
            polls.takes += 1
            return (false, polls.takes == 2)
        }
        #expect(!joined && polls.takes == 2)

        // Nothing comes: polling stops at the deadline, 100 readings of 10 ns after 1,000.
        polls = Polls(step: 10)
        joined = _pollForLateCalls(until: 2_000, now: polls.now, yield: {}) {
            polls.takes += 1
            return (false, false)
        }
        #expect(!joined && polls.takes == 100)

        // A deadline already passed: no poll at all.
        polls = Polls(step: 10)
        joined = _pollForLateCalls(until: 500, now: polls.now, yield: {}) {
            polls.takes += 1
            return (true, false)
        }
        #expect(!joined && polls.takes == 0)
    }

    @Test("a call made while a large bulk run waits for late calls gives the rows of both calls, each batch replaying to the next")
    func lateCallDuringTheWait() async {
        let count = _Tuning.lateCallWaitMinimumListRows
        let base = (0 ..< count).map { TestRow(id: $0, key: $0 * 10) }
        let source = ListDataSource(base)
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        await source.flush()
        _ = recorder.take()

        let removed = Array(Array(stride(from: 0, to: count, by: 97)).prefix(_Tuning.lateCallWaitMinimumRows))
        let added = (0 ..< 2_000).map { TestRow(id: count + $0, key: $0 * 70 + 5) }  // between the base keys
        // Distinct keys: the rows are those left and added, sorted (an oracle that
        // inserts one row at a time would take minutes on this many).
        let gone = Set(removed)
        let expected = (base.filter { !gone.contains($0.id) } + added).sorted { $0 < $1 }
        // The caller pauses between its calls, as a preempted one does: the second call
        // joins the first one's batch when it comes within the wait (one batch), or
        // makes its own (two); the rows are the same.
        source.remove(ids: removed)
        try? await Task.sleep(for: .microseconds(50))
        source.add(added)
        await source.flush()
        let batches = recorder.take()
        #expect((1 ... 2).contains(batches.count))
        #expect(batches.last.map { Array($0.new) } == expected)
        for batch in batches {
            var replayed = Array(batch.old)
            batch.apply(to: &replayed)
            #expect(replayed == Array(batch.new))
        }
    }
}

/// The delivery ledger: what reads see as renderers progress.
@Suite struct DeliveryLedgerTests {
    func snapshot(_ version: Int) -> ListSnapshot<TestRow> {
        var storage = _ListStorage<TestRow>(comparator: .natural)
        storage.add(contentsOf: (0..<version).map { TestRow(id: $0, key: $0) })
        return ListSnapshot(_storage: storage, version: version)
    }

    @Test("reads follow the slowest renderer, and the newest version without renderers")
    func slowestRendererWins() {
        var ledger = _DeliveryLedger<TestRow>(initial: snapshot(0))
        let receivers = ledger.computed(snapshot(1))
        #expect(receivers.isEmpty)
        #expect(ledger.delivered.version == 1)
        let owner = BatchRecorder<TestRow>()
        let fast = ledger.register(renderer: ObjectIdentifier(owner), queue: .global(), deliver: { _ in }).box
        let again = ledger.register(renderer: ObjectIdentifier(owner), queue: .global(), deliver: { _ in })
        #expect(again.box === fast && !again.isNew)  // one renderer object, one attachment
        let slow = ledger.register(renderer: nil, queue: .global(), deliver: { _ in }).box
        let started = ledger.startReceiving(fast.token, attached: snapshot(1)) && ledger.startReceiving(slow.token, attached: snapshot(1))
        #expect(started)
        #expect(ledger.delivered.version == 1)
        let both = ledger.computed(snapshot(2))
        #expect(both.count == 2)
        ledger.rendered(fast.token, snapshot(2))
        ledger.rendered(slow.token, snapshot(1))
        #expect(ledger.delivered.version == 1)
        ledger.rendered(slow.token, snapshot(2))
        #expect(ledger.delivered.version == 2)
        _ = ledger.computed(snapshot(3))
        ledger.rendered(fast.token, snapshot(3))
        #expect(ledger.delivered.version == 2)
        let removed = ledger.unregister(slow.token)
        #expect(removed != nil)  // the laggard leaves
        #expect(ledger.delivered.version == 3)
        let removedAgain = ledger.unregister(slow.token)
        #expect(removedAgain == nil)
        let restarted = ledger.startReceiving(slow.token, attached: snapshot(3))
        #expect(!restarted)
    }
}
