@testable import ListEngine
import ListTestSupport
import Testing

/// The id index's overlay: bulk edits written beside the main entries, single updates
/// and removals of ids that have an overlay entry or not, and folds. Checked against a
/// dictionary after every step, with ids whose hashes are distinct and ids whose hashes
/// collide in runs, on trees of small nodes.
@Suite(.cpuBound) struct IDOverlayTests {
    @Test("bulk edits into the overlay, single updates and removals, and folds agree with a dictionary", arguments: [4, 7, 64])
    func againstDictionary(fanout: Int) {
        var stepsWithOverlay = 0, bulkEdits = 0
        // A twentieth of the property seed count: each seed makes 30 steps over
        // thousands of ids.
        let seeds = propertySeedCount(default: 200) / 20
        for seed in 0..<seeds {
            var rng = SplitMix64(seed: seed &* 131 &+ UInt64(fanout))
            let collides = seed % 3 == 2
            let idRange = rng.chance(0.5) ? 300 : 3_000
            func id(_ value: Int) -> OverlayID { OverlayID(value: value, collides: collides) }
            let initial = (0..<idRange / 2).map { OverlayRow(id: id($0 * 2), payload: 0) }.shuffled(using: &rng)
            guard let built = _IDIndex(distinctItems: initial) else {
                Issue.record("distinct ids refused")
                return
            }
            var index = built
            index.entries = _CountedBTree(Array(built.entries), fanout: .init(leaf: fanout, branch: fanout))
            var expected = Dictionary(uniqueKeysWithValues: initial.map { ($0.id, $0) })
            for step in 0..<30 {
                let context = "fanout \(fanout) seed \(seed) step \(step)"
                switch rng.int(in: 0..<10) {
                case 0..<6:
                    var run = _EditRun<OverlayRow>()
                    for _ in 0..<rng.int(in: 1..<4) {
                        let size = rng.int(in: 1..<60)
                        if rng.chance(0.3) {
                            run.remove((0..<size).map { _ in id(rng.int(in: 0..<idRange)) })
                        } else {
                            run.add((0..<size).map { _ in
                                let value = rng.int(in: 0..<idRange)
                                // Some adds put back the item the main entries hold (an undo).
                                return OverlayRow(id: id(value), payload: rng.chance(0.3) && value % 2 == 0 ? 0 : rng.int(in: 0..<4))
                            })
                        }
                    }
                    // Reduced anew, or extending the reduction of its first call, as after a late call joined.
                    let fresh = _IDEditor<OverlayRow>(run)
                    var firstCall = _EditRun<OverlayRow>()
                    if case .add(let items)? = run.firstCall { firstCall.add(items) }
                    if case .remove(let ids)? = run.firstCall { firstCall.remove(ids) }
                    var editor = rng.chance(0.5) ? _IDEditor(run, extending: _IDEditor(firstCall)) : fresh
                    #expect(editor.hashes == fresh.hashes && editor.ids == fresh.ids && editor.newItems == fresh.newItems
                            && editor.isRewritten == fresh.isRewritten && editor.callHashes == fresh.callHashes, "extended reduction — \(context)")
                    let fraction = [1, 2, 4, 16][rng.int(in: 0..<4)]
                    if let edited = index._editing(with: &editor, concurrentFrom: rng.chance(0.5) ? 1 : .max, overlayMinimum: 0, overlayFraction: fraction) {
                        bulkEdits += 1
                        for edit in 0..<editor.editCount where editor.oldItems[edit] != expected[editor.ids[edit]] {
                            Issue.record("stored item of \(editor.ids[edit]) found as \(String(describing: editor.oldItems[edit])) — \(context)")
                            break
                        }
                        #expect(edited.overlay.count <= max(0, edited.entries.count / fraction) || edited.overlay.isEmpty, "overlay past its bound — \(context)")
                        index = edited
                    } else {
                        // Two named ids share a hash in one leaf: one call at a time, as the storage does.
                        run.forEachCall { call in
                            switch call {
                            case .add(let items): for item in items { index.update(item) }
                            case .remove(let ids): for id in ids { index.remove(id) }
                            }
                        }
                    }
                    run.forEachCall { call in
                        switch call {
                        case .add(let items): for item in items { expected[item.id] = item }
                        case .remove(let ids): for id in ids { expected[id] = nil }
                        }
                    }
                case 6..<9:
                    for _ in 0..<rng.int(in: 1..<20) {
                        let value = id(rng.int(in: 0..<idRange))
                        if rng.chance(0.4) {
                            #expect(index.remove(value) == expected.removeValue(forKey: value), "remove \(value) — \(context)")
                        } else {
                            let item = OverlayRow(id: value, payload: rng.int(in: 0..<4))
                            index.update(item)
                            expected[value] = item
                        }
                    }
                default:
                    index = index._folded
                    #expect(index.overlay.isEmpty && index.overlayCountChange == 0, "fold left an overlay — \(context)")
                }
                if !index.overlay.isEmpty { stepsWithOverlay += 1 }
                Self.expectHolds(expected, index, context)
                if step % 5 == 4 {
                    Self.expectHolds(expected, index._folded, "folded, \(context)")
                    // In halves cut at a hash, on two threads: the same entries.
                    let halves = index._folded(concurrently: true)
                    Self.expectHolds(expected, halves, "folded in halves, \(context)")
                    #expect(Array(halves.entries).map(\.item) == Array(index._folded.entries).map(\.item), "halves — \(context)")
                }
            }
        }
        // Of 30 steps per seed, 6 in 10 are bulk edits.
        #expect(stepsWithOverlay > 8 * Int(seeds) && bulkEdits > 8 * Int(seeds), "overlay in \(stepsWithOverlay) steps, \(bulkEdits) bulk edits")
    }

    @Test("the main items of many ids, found leaf by leaf, are those found one at a time", arguments: [false, true])
    func mainItemsLeafByLeaf(collides: Bool) throws {
        var rng = SplitMix64(seed: collides ? 5 : 6)
        let items = (0..<40_000).map { OverlayRow(id: OverlayID(value: $0 * 2, collides: collides), payload: $0 % 5) }
        let index = try #require(_IDIndex(distinctItems: items.shuffled(using: &rng)))
        var run = _EditRun<OverlayRow>()
        run.add((0..<6_000).map { _ in OverlayRow(id: OverlayID(value: rng.int(in: 0..<80_000), collides: collides), payload: 9) })
        let edits = _IDEditor<OverlayRow>(run)
        for concurrently in [false, true] {
            let found = index._mainItems(of: edits, concurrently: concurrently)
            #expect(found.count == edits.editCount)
            for edit in 0..<edits.editCount where found[edit] != index._mainItem(edits.ids[edit], hash: edits.hashes[edit]) {
                Issue.record("\(edits.ids[edit]): \(String(describing: found[edit])), one at a time \(String(describing: index[edits.ids[edit]]))")
                return
            }
            let present = found.filter { $0 != nil }.count
            #expect(present > 1_000 && present < edits.editCount - 1_000, "\(present) of \(edits.editCount) present")
        }
    }

    @Test("ids hashed on two threads get the hashes one thread gives, in order, from any start")
    func hashesOnTwoThreads() {
        var rng = SplitMix64(seed: 9)
        for round in 0..<40 {
            let ids = (0..<rng.int(in: 0..<300)).map { _ in OverlayID(value: rng.int(in: 0..<1_000), collides: round % 2 == 0) }
            let start = rng.int(in: 0..<ids.count + 1)
            let prefix = (0..<start).map { -$0 }
            var one = prefix, two = prefix
            _IDEditor<OverlayRow>._appendHashes(of: ids, from: start, to: &one, concurrentFrom: .max)
            _IDEditor<OverlayRow>._appendHashes(of: ids, from: start, to: &two, concurrentFrom: 1)
            #expect(one == prefix + ids[start...].map(\.hashValue), "round \(round): one thread")
            #expect(two == one, "round \(round): two threads, from \(start) of \(ids.count)")
        }
        // A run of more ids than the threshold, reduced: its hashes are each id's.
        var run = _EditRun<OverlayRow>()
        run.add((0..<(_Tuning.parallelHashMinimumIDs + 100)).map { OverlayRow(id: OverlayID(value: $0, collides: false), payload: 1) })
        let edits = _IDEditor<OverlayRow>(run)
        #expect(edits.editCount == _Tuning.parallelHashMinimumIDs + 100)
        #expect(edits.hashes == edits.hashes.sorted() && zip(edits.ids, edits.hashes).allSatisfy { $0.hashValue == $1 })
    }

    @Test("the searches of a leaf by spread hashes and from a guess find what a linear search finds, however the hashes are spread")
    func searchBySpreadHashes() {
        var rng = SplitMix64(seed: 3)
        for round in 0..<400 {
            let count = rng.int(in: 0..<600)
            var hashes: [Int]
            switch round % 4 {
            case 0: hashes = (0..<count).map { _ in Int(bitPattern: UInt(rng.next())) }  // spread, as hashes are
            case 1: hashes = (0..<count).map { _ in rng.int(in: 0..<20) }  // long runs of equal hashes
            case 2: hashes = (0..<count).map { $0 * $0 * $0 }  // bunched at one end
            default: hashes = (0..<count).map { _ in rng.chance(0.9) ? rng.int(in: 0..<100) : Int.max - rng.int(in: 0..<100) }  // two clusters
            }
            hashes.sort()
            let leaf = hashes.map { _IDEntry(hash: $0, item: TestRow(id: 0, key: 0)) }
            for _ in 0..<20 {
                let sought = rng.chance(0.5) && !hashes.isEmpty ? hashes[rng.int(in: 0..<count)] &+ rng.int(in: -1..<2) : Int(bitPattern: UInt(rng.next()))
                let low = count == 0 ? 0 : rng.int(in: 0..<count + 1)
                let start = hashes[low...].firstIndex { $0 >= sought } ?? count
                let found = _IDIndex<TestRow>._firstIndex(ofHashAtLeast: sought, in: leaf, from: low, below: count)
                // A guess near the answer, far from it, or out of the leaf.
                let guess = [start + rng.int(in: -3..<4), rng.int(in: -5..<count + 5), start + rng.int(in: -40..<41)][rng.int(in: 0..<3)]
                let walked = _IDIndex<TestRow>._firstIndex(ofHashAtLeast: sought, in: leaf, from: low, near: guess)
                guard found == start, walked == start else {
                    Issue.record("round \(round): \(sought) from \(low): \(found), from \(guess) \(walked), expected \(start)")
                    return
                }
            }
        }
    }

    /// Records an issue unless `index` holds exactly `expected`, with its main entries
    /// and overlay in hash order and the overlay's kinds and count change true.
    static func expectHolds(_ expected: [OverlayID: OverlayRow], _ index: _IDIndex<OverlayRow>, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(index.count == expected.count, "count \(index.count), expected \(expected.count) — \(context)", sourceLocation: sourceLocation)
        for (id, item) in expected where index[id] != item {
            Issue.record("\(id) holds \(String(describing: index[id])), expected \(item) — \(context)", sourceLocation: sourceLocation)
            return
        }
        for value in -40 ..< 0 where index[OverlayID(value: value, collides: expected.keys.first?.collides ?? false)] != nil {
            Issue.record("absent id \(value) found — \(context)", sourceLocation: sourceLocation)
            return
        }
        let main = Array(index.entries), overlay = Array(index.overlay)
        #expect(main.map(\.hash) == main.map(\.hash).sorted() && main.allSatisfy { $0.hash == $0.item.id.hashValue }, "main entries out of order — \(context)", sourceLocation: sourceLocation)
        #expect(overlay.map(\.entry.hash) == overlay.map(\.entry.hash).sorted() && overlay.allSatisfy { $0.entry.hash == $0.entry.item.id.hashValue },
                "overlay out of order — \(context)", sourceLocation: sourceLocation)
        #expect(Set(overlay.map(\.entry.item.id)).count == overlay.count, "an id twice in the overlay — \(context)", sourceLocation: sourceLocation)
        let mainIDs = Set(main.map(\.item.id))
        #expect(main.count == mainIDs.count, "an id twice in the main entries — \(context)", sourceLocation: sourceLocation)
        for change in overlay where mainIDs.contains(change.entry.item.id) == (change.kind == .added) {
            Issue.record("overlay says \(change.kind) for \(change.entry.item.id) — \(context)", sourceLocation: sourceLocation)
            return
        }
        let countChange = overlay.reduce(0) { $0 + ($1.kind == .added ? 1 : $1.kind == .removed ? -1 : 0) }
        #expect(index.overlayCountChange == countChange, "count change \(index.overlayCountChange), entries say \(countChange) — \(context)", sourceLocation: sourceLocation)
        ListStorageEditingTests.expectWellFormed(index.entries, "main, \(context)", sourceLocation: sourceLocation)
        ListStorageEditingTests.expectWellFormed(index.overlay, "overlay, \(context)", sourceLocation: sourceLocation)
    }
}

/// An id whose hash is its value's, or, when it collides, that of its value modulo 61:
/// then a few dozen ids share each hash.
struct OverlayID: Hashable, Sendable, CustomStringConvertible {
    var value: Int
    var collides: Bool

    func hash(into hasher: inout Hasher) {
        hasher.combine(collides ? value % 61 : value)
    }

    var description: String { "id \(value)" }
}

struct OverlayRow: DataSourceComparable, Hashable, CustomStringConvertible {
    var id: OverlayID
    var payload: Int

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.id.value < rhs.id.value }

    var description: String { "#\(id.value)/\(payload)" }
}
