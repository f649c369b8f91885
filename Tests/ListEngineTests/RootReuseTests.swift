import Dispatch
@testable import ListEngine
import ListTestSupport
import Synchronization
import Testing

/// A short list's one-row changes copy the current root leaf into the root leaf of the
/// version before, once nothing else holds it, instead of allocating a new one. A leaf
/// that anything still holds (a snapshot, a batch, an iterator) must never be written.
@Suite struct RootReuseTests {
    static let seeds = propertySeedCount(default: 200)

    @Test("a spare leaf that nothing else holds takes the shared root's elements; a held one is left alone")
    func spareIsUsedOnlyWhenUnique() {
        let rows = (0 ..< 40).map { TestRow(id: $0, key: $0 * 2) }
        var tree = _CountedBTree(rows)
        let snapshot = tree
        var spare: _CountedBTree<TestRow>._Node? = _CountedBTree((0 ..< 45).map { TestRow(id: 100 + $0, key: $0) }).root
        let spareIdentity = spare.map(ObjectIdentifier.init)
        tree._makeRootUnique(reusing: &spare)
        #expect(spare == nil)
        #expect(tree.root.map(ObjectIdentifier.init) == spareIdentity, "the spare became the root")
        #expect(Array(tree) == rows && Array(snapshot) == rows)
        tree.insert(TestRow(id: 99, key: 1), at: 1)
        #expect(Array(snapshot) == rows, "the snapshot's root was not written")
        #expect(tree.count == 41 && tree[1].id == 99)

        // A spare someone still holds is dropped, not written.
        let heldTree = _CountedBTree((0 ..< 45).map { TestRow(id: 200 + $0, key: $0) })
        var held = heldTree.root
        var other = snapshot
        other._makeRootUnique(reusing: &held)
        #expect(held == nil)
        #expect(other.root.map(ObjectIdentifier.init) == snapshot.root.map(ObjectIdentifier.init), "still shared: the mutation copies it")
        #expect(Array(heldTree) == (0 ..< 45).map { TestRow(id: 200 + $0, key: $0) })

        // A spare without room for one more is not used.
        var small: _CountedBTree<TestRow>._Node? = _CountedBTree([TestRow(id: 300, key: 0)]).root
        var third = snapshot
        third._makeRootUnique(reusing: &small)
        #expect(third.root.map(ObjectIdentifier.init) == snapshot.root.map(ObjectIdentifier.init))
    }

    @Test("a spare leaf replays an edit only when the edit leads from it to the current root")
    func replayNeedsTheEditsVersions() {
        let before = (0 ..< 20).map { TestRow(id: $0, key: $0 * 10) }
        var after = before
        after.remove(at: 3)
        after.insert(TestRow(id: 3, key: 155), at: 15)
        var tree = _CountedBTree(after)
        let published = tree
        var spare = _CountedBTree(before).root
        let edit = _CountedBTree<TestRow>._RootLeafEdit(removedAt: 3, insertedAt: 15, after: published.root.unsafelyUnwrapped)
        tree._makeRootUnique(reusing: &spare, replaying: edit)
        #expect(Array(tree) == after && Array(published) == after)
        #expect(tree.root !== published.root, "the spare became the root")

        // The replay trusts the edit: rows of the spare that it does not name are kept as
        // they are, not read from the current root (which is why the engine hands a spare
        // its edit only when the spare holds the rows the edit started from).
        var marked = before
        marked[0].payload = 7
        var trusting = _CountedBTree(after)
        let trustingPublished = trusting
        var markedSpare = _CountedBTree(marked).root
        let trustingEdit = _CountedBTree<TestRow>._RootLeafEdit(removedAt: 3, insertedAt: 15, after: trustingPublished.root.unsafelyUnwrapped)
        trusting._makeRootUnique(reusing: &markedSpare, replaying: trustingEdit)
        #expect(trusting[0].payload == 7 && Array(trusting.dropFirst()) == Array(after.dropFirst()), "the edit was replayed, not the root copied")

        // An edit made to another leaf (equal rows, another node) is not replayed: the
        // spare is copied from the current root instead.
        var other = _CountedBTree(after)
        let otherPublished = other
        var unrelated = _CountedBTree((0 ..< 20).map { TestRow(id: 100 + $0, key: $0) }).root
        other._makeRootUnique(reusing: &unrelated, replaying: edit)
        #expect(Array(other) == after && Array(otherPublished) == after)

        // An edit whose counts do not fit the spare is refused, and the spare left as it was.
        let short = _CountedBTree(Array(before.prefix(10)))
        #expect(short.root?._replay(edit) == false)
        #expect(Array(short) == Array(before.prefix(10)))
    }

    @Test("the engine reuses the root leaf of the version before once its batch is gone")
    func engineReusesTheReplacedRoot() {
        let queue = DispatchQueue(label: "RootReuseTests")
        var storage = _ListStorage<TestRow>(comparator: .natural)
        storage.add(contentsOf: (0 ..< 30).map { TestRow(id: $0, key: $0 * 10) })
        let engine = _DiffEngine(storage: storage, published: ListSnapshot(_storage: storage, version: 1), queue: queue)
        storage = _ListStorage(comparator: .natural)
        let (reused, versions) = queue.sync { () -> (Bool, [[TestRow]]) in
            var roots: [ObjectIdentifier?] = []
            var versions: [[TestRow]] = []
            for step in 0 ..< 3 {
                var run = _EditRun<TestRow>()
                run.add([TestRow(id: step, key: 1_000 + step)])
                engine.apply(run, joiningLateCalls: nil)
                roots.append(engine.storage.rows.root.map(ObjectIdentifier.init))
                versions.append(engine.takeBatch().map { Array($0.new) } ?? [])  // the batch goes at once
            }
            // The third change wrote into the root the first change made.
            return (roots[2] == roots[0], versions)
        }
        #expect(reused)
        #expect(versions.last?.suffix(3).map(\.id) == [0, 1, 2])
    }

    @Test("the engine replays the last one-row change on the spare leaf, and only when it leads to the current root")
    func replayedEditsEqualTheOracle() {
        let queue = DispatchQueue(label: "RootReuseTests.replay")
        var edited = 0
        for seed in 0 ..< Self.seeds {
            var rng = SplitMix64(seed: seed &+ 92_000)
            let count = rng.int(in: 1 ..< 60)
            let keys = rng.chance(0.5) ? 5 : 10_000
            func row(_ id: Int) -> NotedRow {
                NotedRow(id: id, key: rng.int(in: 0 ..< keys), payload: rng.int(in: 0 ..< 3), note: rng.int(in: 0 ..< 1_000))
            }
            let rows = (0 ..< count).map(row)
            var storage = _ListStorage<NotedRow>(comparator: .natural)
            storage.add(contentsOf: rows)
            let engine = _DiffEngine(storage: storage, published: ListSnapshot(_storage: storage, version: 1), queue: queue)
            storage = _ListStorage(comparator: .natural)
            var oracle = ListOracle<NotedRow>(sortedBy: <)
            oracle.add(rows)
            let (failure, given) = queue.sync { () -> (String?, Int) in
                var given = 0
                var kept: [ChangeBatch<NotedRow>] = []
                for step in 0 ..< 60 {
                    let hasEdit = engine.spareRowEdit != nil && engine.spareRowRoot != nil
                    let id = rng.int(in: 0 ..< count + 5)
                    switch rng.int(in: 0 ..< 11) {
                    case 0 ..< 6:  // one row: new, re-keyed, with new content, or with only a new note
                        let item = rng.chance(0.2) ? (oracle.rows.first { $0.id == id }.map { $0.renoted(rng.int(in: 0 ..< 1_000)) } ?? row(id)) : row(id)
                        var run = _EditRun<NotedRow>()
                        run.add([item])
                        engine.apply(run, joiningLateCalls: nil)
                        oracle.add([item])
                        if hasEdit && engine.spareRowEdit == nil { given += 1 }
                    case 6:
                        var run = _EditRun<NotedRow>()
                        run.remove([id])
                        engine.apply(run, joiningLateCalls: nil)
                        oracle.remove(ids: [id])
                    case 7:
                        let ids = Set((0 ..< rng.int(in: 1 ..< 4)).map { _ in rng.int(in: 0 ..< count + 5) })
                        let items = ids.sorted().map(row)
                        engine.perform { edits in edits.add(items) }
                        oracle.add(items)
                    case 8:
                        // A row taken out and put back with only its note changed: the
                        // list holds the new item, and the batch is empty.
                        guard let stored = oracle.rows.first(where: { $0.id == id }) else { break }
                        let renoted = stored.renoted(stored.note + 1)
                        engine.perform { edits in
                            edits.remove(ids: [id])
                            edits.add([renoted])
                        }
                        oracle.remove(ids: [id])
                        oracle.add([renoted])
                    case 9 where rng.chance(0.5):
                        // Two calls naming 32 rows or more: one pass over the rows, as
                        // the first change since the last batch.
                        var run = _EditRun<NotedRow>()
                        let added = Set((0 ..< 24).map { _ in rng.int(in: 0 ..< count + 40) }).sorted().map(row)
                        let removed = (0 ..< 16).map { _ in rng.int(in: 0 ..< count + 40) }
                        run.add(added)
                        run.remove(removed)
                        engine.apply(run, joiningLateCalls: nil)
                        oracle.add(added)
                        oracle.remove(ids: removed)
                    case 9:
                        let kept = oracle.rows.filter { _ in rng.chance(0.8) }
                        engine.replaceAll(with: kept)
                        oracle.replaceAll(with: kept)
                    default:
                        break
                    }
                    // Batches taken now and then, and some kept for a while, so that the
                    // spare is sometimes held and sometimes one change or more behind.
                    if rng.chance(0.6), let batch = engine.takeBatch(), rng.chance(0.3) { kept.append(batch) }
                    if rng.chance(0.3) { kept.removeAll() }
                    // `==` compares the notes too, which content equality ignores.
                    if Array(engine.storage.rows) != oracle.rows {
                        return ("seed \(seed) step \(step): \(Array(engine.storage.rows).prefix(6)) ≠ \(oracle.rows.prefix(6))", given)
                    }
                }
                return (nil, given)
            }
            if let failure {
                Issue.record(Comment(rawValue: failure))
                break
            }
            edited += given
        }
        #expect(edited > Self.seeds, "\(edited) one-row changes given a spare leaf with its edit in \(Self.seeds) seeds")
    }

    @Test("one-row changes to short lists leave every snapshot and batch still held as it was")
    func heldVersionsStayIntact() async {
        for seed in 0 ..< Self.seeds {
            var rng = SplitMix64(seed: seed &+ 91_000)
            let count = rng.int(in: 1 ..< 120)  // with and without an id index
            let keys = rng.chance(0.5) ? 5 : 10_000
            let rows = (0 ..< count).map { TestRow(id: $0, key: rng.int(in: 0 ..< keys)) }
            let source = ListDataSource<TestRow>(rows)
            let renderer = CheckingRenderer()
            if rng.chance(0.5) { source.attach(renderer) }
            var oracle = ListOracle<TestRow>(sortedBy: <)
            oracle.add(rows)
            var held: [(snapshot: ListSnapshot<TestRow>, rows: [TestRow])] = []
            for step in 0 ..< 40 {
                let id = rng.int(in: 0 ..< count + 10)
                if rng.chance(0.8) {
                    let item = TestRow(id: id, key: rng.int(in: 0 ..< keys), payload: rng.int(in: 0 ..< 3))
                    source.add([item])
                    oracle.add([item])
                } else {
                    source.remove(ids: [id])
                    oracle.remove(ids: [id])
                }
                // Wait for the batch now and then, so that the version before is free
                // to reuse; keep some snapshots, so that some are not.
                if rng.chance(0.5) {
                    let snapshot = await source.flush()
                    #expect(Array(snapshot) == oracle.rows, "seed \(seed) step \(step)")
                    if rng.chance(0.3) { held.append((snapshot, oracle.rows)) }
                }
            }
            #expect(Array(await source.flush()) == oracle.rows, "seed \(seed)")
            for (snapshot, rows) in held where Array(snapshot) != rows {
                Issue.record("seed \(seed): a held snapshot of version \(snapshot.version) changed")
                break
            }
            #expect(renderer.mismatches.load(ordering: .relaxed) == 0, "seed \(seed): a batch's old rows with its steps applied are not its new rows")
        }
    }
}

/// Checks, on its own queue, that each batch's steps take its `old` rows to its `new` rows.
private final class CheckingRenderer: ListRenderer {
    let mismatches = Atomic<Int>(0)

    func render(_ batch: ChangeBatch<TestRow>) {
        var rows = Array(batch.old)
        batch.apply(to: &rows)
        if rows != Array(batch.new) { mismatches.add(1, ordering: .relaxed) }
    }
}

/// A row whose content leaves out its note: adding it with only a new note changes
/// nothing, but taking it out and putting it back stores the new note, in a batch that
/// shows nothing.
private struct NotedRow: Hashable, DataSourceComparable, CustomStringConvertible {
    var id: Int
    var key: Int
    var payload: Int
    var note: Int

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.key < rhs.key }
    func isContentEqual(to other: Self) -> Bool { key == other.key && payload == other.payload }
    func renoted(_ note: Int) -> Self { Self(id: id, key: key, payload: payload, note: note) }
    var description: String { "#\(id)(\(key)/\(payload) note \(note))" }
}
