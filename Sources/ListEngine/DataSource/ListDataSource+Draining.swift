#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

extension ListDataSource {
    /// The diff queue's work: takes the pipeline's steps, has the engine apply them, and
    /// publishes a batch for each group of steps, until the pipeline is idle.
    ///
    /// A call flows one way: `add(_:)` and the other mutations submit a command to the
    /// pipeline (on the caller's thread); this loop takes steps from the pipeline and
    /// hands them to the diff engine, which changes the storage; ``_publish()`` takes
    /// the engine's batch, records it in the delivery ledger and sends it to every
    /// renderer's queue.
    @inlinable func _drain() {
        _engine._assertOnQueue()
        while let steps = _nextSteps() {
            for step in steps {
                switch step {
                case .edits(let run, mayGrow: false):
                    _engine.apply(run, joiningLateCalls: nil)
                case .edits(let run, mayGrow: true):
                    _engine.apply(run) { self._joinLateCalls(&$0, waiting: $1) }
                case .removeAll:
                    _engine.removeAll()
                case .replaceAll(let items):
                    _engine.replaceAll(with: items)
                case .sort(let comparator):
                    _engine.sort(by: comparator)
                case .update(let ids, let change):
                    _engine.update(ids, change)
                case .removeWhere(let predicate):
                    _engine.remove(where: predicate)
                case .perform(let edits):
                    _engine.perform(edits)
                case .attach(let box):
                    _publish()
                    _startDelivering(to: box)
                case .flush(let continuation):
                    _publish()
                    _resumeAfterDelivery(continuation)
                }
            }
            _publish()
        }
    }

    /// The steps to perform next, or `nil` once the pipeline is idle; while the pipeline
    /// lingers, this thread polls for them, yielding its core between polls.
    @inlinable func _nextSteps() -> [_MutationPipeline<Item>.Step]? {
        while true {
            // The time is read only when the pipeline has run out.
            switch _shared.withLock({ $0.pipeline.next(at: DispatchTime.now().uptimeNanoseconds) }) {
            case .steps(let steps): return steps
            case .idle: return nil
            case .poll: sched_yield()
            }
        }
    }

    /// Moves `add` and `remove` calls submitted since the last steps were taken into
    /// `run`; returns whether any joined.
    ///
    /// The caller whose call woke this queue may have been preempted by it on its own
    /// core before it could make its next call: the core is given back first. When
    /// `waiting`, and no call has come, this thread keeps polling for one, yielding its
    /// core between polls, for up to ``_Tuning/lingerNanoseconds``, unless a command of
    /// another kind comes first.
    @inlinable func _joinLateCalls(_ run: inout _EditRun<Item>, waiting: Bool) -> Bool {
        sched_yield()
        if _shared.withLock({ $0.pipeline.takeLeadingEdits(into: &run) }) { return true }
        guard waiting else { return false }
        let start = DispatchTime.now().uptimeNanoseconds
        return _pollForLateCalls(
            until: start + _Tuning.lingerNanoseconds, now: { DispatchTime.now().uptimeNanoseconds }, yield: { sched_yield() }
        ) {
            _shared.withLock { shared in
                (shared.pipeline.takeLeadingEdits(into: &run), shared.pipeline.hasPendingCommands)
            }
        }
    }
}

/// Polls for late calls until one joins, a command of another kind is pending, or the
/// clock reaches `deadline`; returns whether a call joined.
///
/// - Parameters:
///   - now: the clock, in nanoseconds.
///   - yield: gives the core away between polls.
///   - take: moves pending `add` and `remove` calls into the run; says whether any
///     joined and whether a command is still pending (one of another kind).
/// - Complexity: O(1) per poll; the number of polls depends on the clock.
@inlinable func _pollForLateCalls(
    until deadline: UInt64, now: () -> UInt64, yield: () -> Void, take: () -> (joined: Bool, isOtherPending: Bool)
) -> Bool {
    while now() < deadline {
        yield()
        let (joined, isOtherPending) = take()
        if joined { return true }
        if isOtherPending { return false }
    }
    return false
}
