@testable import ListEngine
import ListTestSupport
import Testing

/// The diff has two paths — finding each touched row (few rows touched) and walking
/// both snapshots (many touched) — and `_compute` picks one by size. Both must give the
/// same deletions, insertions and reloads and the same minimal number of moves, moving
/// only touched rows, whatever the sizes.
@Suite(.cpuBound) struct BatchComputingTests {
    func storage(_ rows: [TestRow]) -> _ListStorage<TestRow> {
        var storage = _ListStorage<TestRow>(comparator: .natural)
        for row in rows { storage.add(row) }
        return storage
    }

    @Test("the incremental and the full-walk paths agree", arguments: 0..<4)
    func pathsAgree(chunk: Int) {
        for seed in UInt64(chunk * 500)..<UInt64(chunk * 500 + 500) {
            var rng = SplitMix64(seed: seed)
            let count = rng.int(in: 0..<120)
            var oldStorage = storage((0..<count).map { TestRow(id: $0, key: rng.int(in: 0..<12)) })
            let old = ListSnapshot(_storage: oldStorage, version: 1)
            var touched = Set<Int>()
            for _ in 0..<rng.int(in: 1..<(rng.chance(0.5) ? 6 : 60)) {
                let id = rng.int(in: 0..<(count + 20))
                touched.insert(id)
                if rng.chance(0.3) {
                    oldStorage.remove(id: id)
                } else {
                    oldStorage.add(TestRow(id: id, key: rng.int(in: 0..<12), payload: rng.int(in: 0..<2)))
                }
            }
            let new = ListSnapshot(_storage: oldStorage, version: 2)
            let incremental = ChangeBatch._computeIncremental(from: old, to: new, touched: touched)
            let full = ChangeBatch._computeFull(from: old, to: new, movable: touched)
            let context = "seed \(seed)"
            #expect(incremental.deletions == full.deletions, "\(context)")
            #expect(incremental.insertions == full.insertions, "\(context)")
            #expect(incremental.reloads == full.reloads, "\(context)")
            #expect(incremental.moves.count == full.moves.count, "\(context)")
            for batch in [incremental, full] {
                for move in batch.moves {
                    #expect(touched.contains(old[move.from].id), "untouched row moved — \(context)")
                }
                #expect(batch.moves.count == batch._minimumMoveCount { touched.contains(old[$0].id) }, "\(context)")
                expectInvariants(batch, context: context)
            }
        }
    }

    @Test("the move check counts the fewest moves that only named rows make, and notices untouched rows out of order")
    func minimumMoveCount() {
        // 0 re-keyed from first to second place: one move (0, or 1 if both were named).
        let old = ListSnapshot(_storage: storage((0 ..< 4).map { TestRow(id: $0, key: $0 * 10) }), version: 1)
        var changed = old._storage
        changed.add(TestRow(id: 0, key: 15))
        let new = ListSnapshot(_storage: changed, version: 2)
        let onlyZero: (Int) -> Bool = { old[$0].id == 0 }
        let minimal = ChangeBatch._computeIncremental(from: old, to: new, touched: [0])
        #expect(minimal.moves.count == 1)
        #expect(minimal._minimumMoveCount(isTouched: onlyZero) == 1)
        #expect(minimal._minimumMoveCount(isTouched: { _ in true }) == 1)
        // A batch that also moves row 1 still applies, but is not minimal.
        let wasteful = ChangeBatch(
            old: old, new: new, deletions: [], insertions: [],
            moves: [ListMove(from: 0, to: 1), ListMove(from: 1, to: 0)], reloads: [1]
        )
        var rows = Array(old)
        wasteful.apply(to: &rows)
        #expect(rows == Array(new))
        #expect(wasteful._minimumMoveCount(isTouched: { _ in true }) == 1)
        // Rows 1 and 2 swapped, neither named: no moves of named rows can do that.
        var swapped = old._storage
        swapped.add(TestRow(id: 1, key: 25))
        let reordered = ChangeBatch._computeIncremental(from: old, to: ListSnapshot(_storage: swapped, version: 2), touched: [1])
        #expect(reordered._minimumMoveCount(isTouched: { old[$0].id == 1 }) == 1)
        #expect(reordered._minimumMoveCount(isTouched: onlyZero) == nil)
    }

    @Test("the subsequence the moves leave in place is strictly increasing and as long as any")
    func longestIncreasingSubsequence() {
        for seed in UInt64(0)..<2_000 {
            var rng = SplitMix64(seed: seed &+ 90_000)
            let count = rng.int(in: 0..<60)
            // Mostly increasing (the fast path) or random, with repeated values.
            let values: [Int] = rng.chance(0.5)
                ? (0..<count).map { rng.chance(0.9) ? $0 * 2 : rng.int(in: 0..<(2 * count + 1)) }
                : (0..<count).map { _ in rng.int(in: 0..<20) }
            let mask = _longestIncreasingSubsequenceMask(values)
            let kept = zip(values, mask).filter(\.1).map(\.0)
            #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 }, "seed \(seed): \(values) kept \(kept)")
            // The longest length, by the quadratic recurrence.
            var longestEndingAt = [Int](repeating: 1, count: count)
            for end in 0..<count {
                for start in 0..<end where values[start] < values[end] {
                    longestEndingAt[end] = max(longestEndingAt[end], longestEndingAt[start] + 1)
                }
            }
            #expect(kept.count == (longestEndingAt.max() ?? 0), "seed \(seed): \(values) kept \(kept)")
        }
    }

    @Test("one-offset arrays hold their offset, and share storage only below the limit")
    func singleOffsets() {
        for offset in [-1, 0, 1, 49, _SingleOffsets.limit - 1, _SingleOffsets.limit, 1_000_000, -2] {
            #expect(_SingleOffsets.array(offset) == [offset])
        }
        // Two requests for a shared offset give one storage; an unshared one is made each time.
        func base(_ array: [Int]) -> UnsafeRawPointer? { array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        #expect(base(_SingleOffsets.array(7)) == base(_SingleOffsets.array(7)))
        let large = _SingleOffsets.array(_SingleOffsets.limit), again = _SingleOffsets.array(_SingleOffsets.limit)
        #expect(base(large) != base(again))
        // A shared array changed through a copy leaves the shared one as it was.
        var changed = _SingleOffsets.array(3)
        changed.append(4)
        #expect(changed == [3, 4] && _SingleOffsets.array(3) == [3])
    }
}
