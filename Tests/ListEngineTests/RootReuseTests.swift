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
