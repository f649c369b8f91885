import Dispatch
@testable import ListEngine
import Synchronization
import Testing

/// Counts the items released, and those released on a queue marked with `diffQueueKey`.
private final class ReleaseLog: Sendable {
    static let diffQueueKey = DispatchSpecificKey<Bool>()

    let released = Atomic<Int>(0)
    let releasedOnDiffQueue = Atomic<Int>(0)

    func recordRelease() {
        released.add(1, ordering: .relaxed)
        if DispatchQueue.getSpecific(key: Self.diffQueueKey) == true {
            releasedOnDiffQueue.add(1, ordering: .relaxed)
        }
    }

    /// Waits up to five seconds for `count` releases; returns the count reached.
    func waitForReleases(_ count: Int) async -> Int {
        for _ in 0 ..< 500 where released.load(ordering: .relaxed) < count {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return released.load(ordering: .relaxed)
    }
}

/// Tells the log when the last copy of the row that owns it goes.
private final class ReleaseProbe: Sendable {
    let log: ReleaseLog

    init(log: ReleaseLog) {
        self.log = log
    }

    deinit {
        log.recordRelease()
    }
}

/// A row whose stored copies share one probe, released with the row's last copy.
private struct ProbedRow: Hashable, DataSourceComparable {
    let id: Int
    let key: Int
    let probe: ReleaseProbe

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.key, lhs.id) < (rhs.key, rhs.id)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(key)
    }
}

/// Applies nothing: it returns as soon as it is called, as a quick renderer does.
private final class QuickRenderer: ListRenderer {
    typealias Item = ProbedRow
    func render(_ batch: ChangeBatch<ProbedRow>) {}
}

@Suite struct SharedBatchTests {
    /// The batch that deletes `count` probed rows, shared by `holders`; its `old` snapshot is
    /// the rows' only holder.
    private static func sharedDeletion(
        of count: Int, logging log: ReleaseLog, holders: Int, leftovers: _BulkEditLeftovers<ProbedRow>? = nil
    ) -> _SharedBatch<ProbedRow> {
        let comparator = _RowOrder<ProbedRow>.natural
        var storage = _ListStorage<ProbedRow>(comparator: comparator)
        storage.add(contentsOf: (0 ..< count).map { ProbedRow(id: $0, key: $0, probe: ReleaseProbe(log: log)) })
        let batch = ChangeBatch._compute(
            from: ListSnapshot(_storage: storage, version: 1),
            to: ListSnapshot(_storage: _ListStorage(comparator: comparator), version: 2),
            touched: .all
        )
        return _SharedBatch(consume batch, holders: holders, leftovers: leftovers)
    }

    /// A list of `rowCount` probed rows with a quick renderer attached and delivered to,
    /// its diff queue marked for `ReleaseLog`.
    private static func probedSource(rowCount: Int, logging log: ReleaseLog) async -> (ListDataSource<ProbedRow>, QuickRenderer) {
        let source = ListDataSource<ProbedRow>((0 ..< rowCount).map { ProbedRow(id: $0, key: $0, probe: ReleaseProbe(log: log)) })
        source._diffQueue.setSpecific(key: ReleaseLog.diffQueueKey, value: true)
        let renderer = QuickRenderer()
        source.attach(renderer)
        _ = await source.flush()
        return (source, renderer)
    }

    @Test("a shared batch is dropped by the last holder to finish")
    func droppedByLastHolder() {
        let log = ReleaseLog()
        let shared = Self.sharedDeletion(of: 10, logging: log, holders: 3)
        #expect(shared.batch.deletions == Array(0 ..< 10))
        shared.finish()
        shared.finish()
        #expect(shared.isHeld)
        #expect(log.released.load(ordering: .relaxed) == 0)
        shared.finish()
        #expect(!shared.isHeld)
        #expect(log.released.load(ordering: .relaxed) == 10)
    }

    @Test("a shared batch whose holders did not all finish is freed with the shared batch")
    func freedWhenDroppedEarly() {
        let log = ReleaseLog()
        var shared: _SharedBatch<ProbedRow>? = Self.sharedDeletion(of: 10, logging: log, holders: 2)
        shared?.finish()
        #expect(shared?.isHeld == true)
        #expect(log.released.load(ordering: .relaxed) == 0)
        shared = nil
        #expect(log.released.load(ordering: .relaxed) == 10)
    }

    @Test("what a bulk edit worked with goes with its batch and is freed by the last holder")
    func leftoversFreedByLastHolder() {
        let log = ReleaseLog(), leftoverLog = ReleaseLog()
        var run = _EditRun<ProbedRow>()
        run.add((0 ..< 50).map { ProbedRow(id: $0, key: $0, probe: ReleaseProbe(log: leftoverLog)) })
        var leftovers = _BulkEditLeftovers<ProbedRow>()
        leftovers.calls = run
        leftovers.reduced = _IDEditor(run)
        run = _EditRun()
        let shared = Self.sharedDeletion(of: 10, logging: log, holders: 2, leftovers: leftovers)
        leftovers = _BulkEditLeftovers()
        shared.finish()
        #expect(leftoverLog.released.load(ordering: .relaxed) == 0, "a holder has not finished")
        shared.finish()
        #expect(leftoverLog.released.load(ordering: .relaxed) == 50)
        #expect(log.released.load(ordering: .relaxed) == 10)
    }

    @Test("the rows a batch replaced are freed on the renderer's side, never on the diff queue")
    func replacedRowsNotFreedOnDiffQueue() async {
        let log = ReleaseLog()
        let rowCount = 4_000, rounds = 20, replacedPerRound = 500
        let (source, renderer) = await Self.probedSource(rowCount: rowCount, logging: log)

        for round in 1 ... rounds {
            // Re-key rows spread over the list: each replaced row's old copy lives only in
            // the old version, so it goes when the batch that replaced it goes.
            source.add(stride(from: round % 8, to: rowCount, by: rowCount / replacedPerRound).map {
                ProbedRow(id: $0, key: round * rowCount + $0, probe: ReleaseProbe(log: log))
            })
            #expect(await source.flush().count == rowCount)
        }
        #expect(await log.waitForReleases(rounds * replacedPerRound) == rounds * replacedPerRound)
        #expect(log.releasedOnDiffQueue.load(ordering: .relaxed) == 0)
        withExtendedLifetime(renderer) {}
    }

    @Test("what a bulk edit worked with is freed on the renderer's side with its batch, never on the diff queue")
    func bulkEditLeftoversNotFreedOnDiffQueue() async {
        let log = ReleaseLog()
        let rowCount = 4_000, rounds = 10, named = 200
        let (source, renderer) = await Self.probedSource(rowCount: rowCount, logging: log)

        for round in 1 ... rounds {
            // Each named id is given two items in one run: the first lives only in the
            // calls, which the edit keeps for its batch, and the row it replaces only in
            // the batch's `old` snapshot.
            source.perform { edits in
                let ids = stride(from: round % 8, to: rowCount, by: rowCount / named)
                edits.add(ids.map { ProbedRow(id: $0, key: rowCount * round + $0, probe: ReleaseProbe(log: log)) })
                edits.add(ids.map { ProbedRow(id: $0, key: rowCount * (rounds + round) + $0, probe: ReleaseProbe(log: log)) })
            }
            #expect(await source.flush().count == rowCount)
            // Idle threads between rounds: the renderer's queue then often finishes with
            // the batch before the diff queue has returned from sending it, where a copy
            // of what the edit worked with kept on the diff queue would be the last.
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(await log.waitForReleases(rounds * named * 2) == rounds * named * 2)
        #expect(log.releasedOnDiffQueue.load(ordering: .relaxed) == 0)
        withExtendedLifetime(renderer) {}
    }
}
