import ListTestSupport
import Testing
@testable import ListEngine

/// A batch that changes rows in many sections finds every section's first row by one
/// walk of each snapshot (`_CountedBTree.runStarts(by:)`); one that changes few searches
/// for the sections of its rows. The walk must find exactly the runs a row-by-row scan
/// finds, and both ways must give a batch the same index-path form.
@Suite struct SectionWalkTests {
    static let seeds = propertySeedCount(default: 300)

    /// Each run of equal keys in `keys` with its first position: the oracle.
    static func scannedRunStarts(_ keys: [Int]) -> [(key: Int, start: Int)] {
        var starts: [(key: Int, start: Int)] = []
        for (position, key) in keys.enumerated() where starts.last?.key != key {
            starts.append((key, position))
        }
        return starts
    }

    @Test("a walk, on one thread or cut in two halves on two, finds the runs a scan of every element finds, in trees of every shape")
    func runStartsMatchScan() {
        for seed in 0 ..< Self.seeds {
            var rng = SplitMix64(seed: seed &+ 90_000)
            let (keys, tree) = Self.randomKeyTree(&rng)
            let scanned = Self.scannedRunStarts(keys)
            let walked = tree.runStarts { $0 }
            #expect(walked.map(\.key) == scanned.map(\.key) && walked.map(\.start) == scanned.map(\.start), "seed \(seed): \(keys)")
            // Cut at a level of at least 16 nodes where the tree has one, so the cut falls
            // inside runs, between them, and next to runs of one element.
            let halves = tree.runStarts(by: { $0 }, concurrently: true)
            #expect(halves.map(\.key) == scanned.map(\.key) && halves.map(\.start) == scanned.map(\.start), "seed \(seed), two halves: \(keys)")
        }
    }

    /// A sorted array of keys and a tree holding them, its leaves of uneven fill: small
    /// nodes, so that runs cross leaves and branches, and keys from few to nearly one
    /// per element.
    static func randomKeyTree(_ rng: inout SplitMix64) -> (keys: [Int], tree: _CountedBTree<Int>) {
        let fanout = _CountedBTree<Int>._Fanout(leaf: rng.int(in: 4 ..< 9), branch: rng.int(in: 4 ..< 7))
        let keySpace = [1, 3, 10, 60, 400][rng.int(in: 0 ..< 5)]
        var keys = (0 ..< rng.int(in: 0 ..< 400)).map { _ in rng.int(in: 0 ..< keySpace) }.sorted()
        var tree = _CountedBTree(keys, fanout: fanout)
        for _ in 0 ..< rng.int(in: 0 ..< 60) {
            if !keys.isEmpty && rng.chance(0.4) {
                let position = rng.int(in: 0 ..< keys.count)
                keys.remove(at: position)
                _ = tree.remove(at: position)
            } else {
                let key = rng.int(in: 0 ..< keySpace)
                let position = keys.firstIndex { $0 > key } ?? keys.count
                keys.insert(key, at: position)
                tree.insert(key, at: position)
            }
        }
        return (keys, tree)
    }

    @Test("the run around a position is the one a scan from it finds, in trees of every shape")
    func runContainingMatchesScan() {
        for seed in 0 ..< Self.seeds {
            var rng = SplitMix64(seed: seed &+ 92_000)
            let (keys, tree) = Self.randomKeyTree(&rng)
            for position in keys.indices {
                var first = position, end = position + 1
                while first > 0 && keys[first - 1] == keys[position] { first -= 1 }
                while end < keys.count && keys[end] == keys[position] { end += 1 }
                let run = tree.run(containing: position) { $0 }
                #expect(run.key == keys[position] && run.positions == first ..< end, "seed \(seed), position \(position): \(run) in \(keys)")
            }
        }
    }

    @Test("walking and searching give every batch the same index-path form", arguments: [false, true])
    func walkingAndSearchingAgree(manySections: Bool) async {
        for seed in 0 ..< Self.seeds / 3 {
            var rng = SplitMix64(seed: seed &+ 91_000)
            let width = manySections ? 1 : 4
            let sectionOf: @Sendable (TestRow) -> Int = { $0.key / width }
            let rule = _SectionRule<Int, TestRow>(sectionOf: sectionOf)
            let source = SectionedListDataSource<Int, TestRow>(sectionedBy: sectionOf)
            var oracle = SectionedOracle<Int, TestRow>(sectionOf: sectionOf, sortedBy: { $0.key < $1.key })
            let recorder = BatchRecorder<TestRow>()
            source.rows.attach(recorder)
            var log: [String] = []
            for _ in 0 ..< rng.int(in: 4 ..< 16) {
                log.append(SectionedListPropertyTests.randomMutation(&rng, oracle: &oracle, source: source, idPool: rng.chance(0.5) ? 8 : 30))
                _ = await source.flush()
                for batch in recorder.take() {
                    let context = "seed \(seed): \(log.joined(separator: "; "))"
                    let walked = rule._partsWalkingSections(of: batch, newKeys: nil)
                    let searched = rule._partsSearchingSections(of: batch, newKeys: nil)
                    #expect(Array(walked.newKeys) == Array(searched.newKeys), "new keys — \(context)")
                    #expect(walked.sectionDeletions == searched.sectionDeletions, "section deletions — \(context)")
                    #expect(walked.sectionInsertions == searched.sectionInsertions, "section insertions — \(context)")
                    #expect(walked.itemDeletions == searched.itemDeletions, "item deletions — \(context)")
                    #expect(walked.itemInsertions == searched.itemInsertions, "item insertions — \(context)")
                    #expect(walked.itemMoves == searched.itemMoves, "item moves — \(context)")
                    #expect(walked.itemReloads == searched.itemReloads, "item reloads — \(context)")
                    // The starts a snapshot carries are the ones a walk of it finds.
                    for snapshot in [batch.old, batch.new] {
                        if let stored = (snapshot._sections as? _SectionKeys<Int>)?.starts {
                            let found = snapshot._storage.rows.runStarts(by: sectionOf)
                            #expect(stored.map(\.key) == found.map(\.key) && stored.map(\.start) == found.map(\.start), "stored starts — \(context)")
                        }
                    }
                }
            }
        }
    }

    @Test("a batch walks for its sections once its changed rows outweigh the sections and leaves")
    func strategy() {
        let weight = _Tuning.walkSectionsChangedRowWeight
        let leaves = 1_000_000 / _Tuning.leafMaximumElements
        #expect(_EditStrategy.walksSections(changedRows: 16_000, sectionCount: 1_000, rowCount: 1_000_000))
        #expect(!_EditStrategy.walksSections(changedRows: 3, sectionCount: 10_000, rowCount: 1_000_000))
        #expect(_EditStrategy.walksSections(changedRows: (10_000 + leaves) / weight + 1, sectionCount: 10_000, rowCount: 1_000_000))
        #expect(!_EditStrategy.walksSections(changedRows: (10_000 + leaves) / weight - 1, sectionCount: 10_000, rowCount: 1_000_000))
    }
}
