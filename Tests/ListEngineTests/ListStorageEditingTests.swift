@testable import ListEngine
import ListTestSupport
import Testing

/// The bulk path for runs of `add` and `remove` calls: one pass over the id index and one
/// over the rows. Checked against the same calls applied one at a time, on trees with
/// small nodes so that every leaf split, merge and level change happens, and checked that
/// the batch built from its records is the one found by searching both snapshots.
@Suite(.cpuBound) struct ListStorageEditingTests {
    /// Storage holding `items` (distinct ids) in nodes of the given capacities.
    static func storage(_ items: [TestRow], fanout: Int, comparator: _RowOrder<TestRow> = .natural) -> _ListStorage<TestRow> {
        var sequential = _ListStorage<TestRow>(comparator: comparator)
        for item in items { sequential.add(item) }
        var ids = _IDIndex<TestRow>()
        ids.entries = _CountedBTree(Array(sequential._fullIndex.entries), fanout: .init(leaf: fanout, branch: fanout))
        return _ListStorage(rows: _CountedBTree(Array(sequential.rows), fanout: .init(leaf: fanout, branch: fanout)), ids: ids, comparator: comparator)
    }

    /// A random run of calls on a list of rows with ids `0 ..< idRange`.
    static func randomRun(rows: [TestRow], idRange: Int, keys: Int, calls: Int, rng: inout SplitMix64) -> _EditRun<TestRow> {
        var run = _EditRun<TestRow>()
        for _ in 0..<calls {
            let size = rng.int(in: 1..<40)
            if rng.chance(0.3) {
                // Removals: present ids, absent ids, repeats.
                run.remove((0..<size).map { _ in rng.chance(0.8) && !rows.isEmpty ? rows[rng.int(in: 0..<rows.count)].id : rng.int(in: 0..<max(1, idRange) * 2) })
            } else {
                run.add((0..<size).map { _ in
                    let roll = rng.int(in: 0..<10)
                    if roll < 2, !rows.isEmpty { return rows[rng.int(in: 0..<rows.count)] }  // unchanged
                    if roll < 4, !rows.isEmpty {  // new content, same key
                        let row = rows[rng.int(in: 0..<rows.count)]
                        return TestRow(id: row.id, key: row.key, payload: rng.int(in: 1..<1_000))
                    }
                    let id = roll < 7 && !rows.isEmpty ? rows[rng.int(in: 0..<rows.count)].id : rng.int(in: 0..<max(1, idRange) * 2)
                    return TestRow(id: id, key: rng.int(in: 0..<keys), payload: rng.int(in: 0..<3))
                })
            }
        }
        return run
    }

    /// Checks the bulk result against one-at-a-time application; returns whether the bulk path was taken.
    @discardableResult
    static func expectMatchesSequential(
        _ storage: _ListStorage<TestRow>, _ run: _EditRun<TestRow>, _ context: String, overlay: (minimum: Int, fraction: Int) = _ListStorage<TestRow>._overlay,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        var sequential = storage
        sequential.apply(run)
        let whole = storage._editing(run, concurrentFrom: .max, overlay: overlay)
        // Cut in two halves on two threads, as large runs are, the passes give the same.
        let cut = storage._editing(run, concurrentFrom: 1, overlay: overlay)
        #expect((whole == nil) == (cut == nil), "cut pass gave up: \(cut == nil) — \(context)", sourceLocation: sourceLocation)
        guard let (edited, records) = whole else { return false }
        if let (cutStorage, cutRecords) = cut {
            #expect(Array(cutStorage.rows) == Array(edited.rows), "cut pass rows — \(context)", sourceLocation: sourceLocation)
            #expect(cutStorage.ids.entries.map(\.item) == edited.ids.entries.map(\.item), "cut pass ids — \(context)", sourceLocation: sourceLocation)
            #expect(cutStorage.ids.overlay.map(\.entry.item) == edited.ids.overlay.map(\.entry.item), "cut pass id overlay — \(context)", sourceLocation: sourceLocation)
            #expect(cutRecords == records, "cut pass records — \(context)", sourceLocation: sourceLocation)
            expectWellFormed(cutStorage.rows, "cut pass, \(context)", sourceLocation: sourceLocation)
            expectWellFormed(cutStorage.ids.entries, "cut pass, \(context)", sourceLocation: sourceLocation)
        }
        let rows = Array(edited.rows)
        #expect(rows == Array(sequential.rows), "rows — \(context)", sourceLocation: sourceLocation)
        #expect(edited.ids.count == expectedIndexCount(rows.count), "id count — \(context)", sourceLocation: sourceLocation)
        for (offset, row) in rows.enumerated() where edited[id: row.id] != row || edited.position(of: row.id) != offset {
            Issue.record("id \(row.id) not indexed at \(offset) — \(context)", sourceLocation: sourceLocation)
            break
        }
        var previous = Int.min
        for entry in edited.ids.entries {
            #expect(entry.hash >= previous && entry.hash == entry.item.id.hashValue, "id index order — \(context)", sourceLocation: sourceLocation)
            previous = entry.hash
        }
        expectWellFormed(edited.rows, context, sourceLocation: sourceLocation)
        expectWellFormed(edited.ids.entries, context, sourceLocation: sourceLocation)
        expectWellFormed(edited.ids.overlay, "id overlay, \(context)", sourceLocation: sourceLocation)

        // The batch from the records is the batch found by searching both snapshots.
        let old = ListSnapshot(_storage: storage, version: 1), new = ListSnapshot(_storage: edited, version: 2)
        var touched = Set<Int>()
        for call in run.calls {
            switch call {
            case .add(let items): touched.formUnion(items.map(\.id))
            case .remove(let ids): touched.formUnion(ids)
            }
        }
        let fromRecords = ChangeBatch._compute(from: old, to: new, edited: records)
        let searched = ChangeBatch._computeIncremental(from: old, to: new, touched: touched)
        #expect(fromRecords.deletions == searched.deletions && fromRecords.insertions == searched.insertions
                && fromRecords.moves == searched.moves && fromRecords.reloads == searched.reloads, "batch — \(context)", sourceLocation: sourceLocation)
        var applied = Array(storage.rows)
        fromRecords.apply(to: &applied)
        #expect(applied == rows, "batch applies — \(context)", sourceLocation: sourceLocation)

        // And both are what the slow model expects (it is quadratic: small lists only).
        if storage.count <= 500 {
            var oracle = ListOracle<TestRow>(sortedBy: { $0 < $1 })
            oracle.add(Array(storage.rows))
            oracle.beginBatch()
            for call in run.calls {
                switch call {
                case .add(let items): oracle.add(items)
                case .remove(let ids): oracle.remove(ids: ids)
                }
            }
            let expected = oracle.expectedBatch()
            #expect(oracle.rows == rows, "oracle rows — \(context)", sourceLocation: sourceLocation)
            #expect(fromRecords.deletions == expected.deletions && fromRecords.insertions == expected.insertions
                    && fromRecords.reloads == expected.reloads && fromRecords.moves.count == expected.minimumMoves,
                    "oracle batch \(expected) — \(context)", sourceLocation: sourceLocation)
        }
        return true
    }

    /// Records an issue unless the tree has the structure its invariants require.
    static func expectWellFormed<Element>(_ tree: _CountedBTree<Element>, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let root = tree.root else { return }
        var leafDepths = Set<Int>()
        func visit(_ node: _CountedBTree<Element>._Node, depth: Int, isRoot: Bool) -> Int {
            if node.isLeaf {
                leafDepths.insert(depth)
                #expect(node.elements.count <= tree.fanout.leaf && (isRoot ? !node.elements.isEmpty : node.elements.count >= tree.fanout.leaf / 2),
                        "leaf of \(node.elements.count) — \(context)", sourceLocation: sourceLocation)
                #expect(node.count == node.elements.count, "leaf count — \(context)", sourceLocation: sourceLocation)
                return node.count
            }
            #expect(node.children.count <= tree.fanout.branch && node.children.count >= (isRoot ? 2 : tree.fanout.branch / 2),
                    "branch of \(node.children.count) — \(context)", sourceLocation: sourceLocation)
            var total = 0
            for (slot, child) in node.children.enumerated() {
                let count = visit(child, depth: depth + 1, isRoot: false)
                #expect(node.childCounts[slot] == count, "child count — \(context)", sourceLocation: sourceLocation)
                total += count
            }
            #expect(node.count == total, "branch count — \(context)", sourceLocation: sourceLocation)
            return total
        }
        _ = visit(root, depth: 0, isRoot: true)
        #expect(leafDepths.count == 1, "leaves at depths \(leafDepths) — \(context)", sourceLocation: sourceLocation)
    }

    @Test("bulk edits without ties equal one-at-a-time calls, and always take the bulk path", arguments: [4, 5, 8, 128])
    func withoutTies(fanout: Int) {
        for seed in UInt64(0)..<150 {
            var rng = SplitMix64(seed: seed &* 31 &+ UInt64(fanout))
            let count = rng.int(in: 1..<400)
            // Keys from a wide range, made distinct per row: no two rows tie, and a new key ties only by chance.
            var usedKeys = Set<Int>()
            let rows = (0..<count).compactMap { id -> TestRow? in
                let key = rng.int(in: 0..<1_000_000)
                return usedKeys.insert(key).inserted ? TestRow(id: id, key: key) : nil
            }
            var run = Self.randomRun(rows: rows, idRange: count, keys: 1_000_000, calls: rng.int(in: 1..<6), rng: &rng)
            // Re-key the added items to unused keys, so that the run itself brings no ties.
            run.calls = run.calls.map { call in
                guard case .add(let items) = call else { return call }
                return .add(items.map { item in
                    if rows.contains(item) || usedKeys.contains(item.key) == false && usedKeys.insert(item.key).inserted { return item }
                    var key = rng.int(in: 0..<1_000_000)
                    while !usedKeys.insert(key).inserted { key = rng.int(in: 0..<1_000_000) }
                    return TestRow(id: item.id, key: key, payload: item.payload)
                })
            }
            let storage = Self.storage(rows, fanout: fanout)
            let context = "fanout \(fanout) seed \(seed)"
            let taken = Self.expectMatchesSequential(storage, run, context)
            #expect(taken, "the bulk path gave up — \(context)")
        }
    }

    @Test("bulk edits written into the id overlay, with single calls and merges between them, equal one-at-a-time calls", arguments: [4, 9, 64])
    func throughTheIDOverlay(fanout: Int) {
        var stepsWithOverlay = 0, bulkEdits = 0
        // A fiftieth of the property seed count: each seed makes 12 steps, each checked
        // against one-at-a-time calls and the slow model.
        let seeds = propertySeedCount(default: 200) / 50
        for seed in UInt64(0)..<seeds {
            var rng = SplitMix64(seed: seed &* 53 &+ UInt64(fanout))
            let count = rng.int(in: 100..<600)
            let rows = (0..<count).map { TestRow(id: $0, key: rng.int(in: 0..<1_000_000)) }
            var storage = Self.storage(rows, fanout: fanout)
            var sequential = storage
            var nextID = 2 * count
            for step in 0..<12 {
                let context = "fanout \(fanout) seed \(seed) step \(step)"
                let current = Array(sequential.rows)
                switch rng.int(in: 0..<8) {
                case 0..<5:
                    let run = Self.randomRun(rows: current, idRange: count, keys: 1_000_000, calls: rng.int(in: 1..<5), rng: &rng)
                    let overlay = (minimum: 0, fraction: [1, 2, 8][rng.int(in: 0..<3)])
                    if Self.expectMatchesSequential(storage, run, context, overlay: overlay), let (edited, _) = storage._editing(run, overlay: overlay) {
                        storage = edited
                        bulkEdits += 1
                    } else {
                        storage.apply(run)
                    }
                    sequential.apply(run)
                case 5, 6:
                    for _ in 0..<rng.int(in: 1..<12) {
                        if rng.chance(0.4), !current.isEmpty {
                            let id = current[rng.int(in: 0..<current.count)].id
                            #expect(storage.remove(id: id) == sequential.remove(id: id), "remove \(id) — \(context)")
                        } else {
                            let item = TestRow(id: rng.int(in: 0..<2 * count), key: rng.int(in: 0..<1_000_000), payload: rng.int(in: 0..<3))
                            #expect(storage.add(item) == sequential.add(item), "add \(item) — \(context)")
                        }
                    }
                default:
                    // Many new ids at once: merged with every row.
                    let items = (0..<rng.int(in: 64..<200)).map { offset in TestRow(id: nextID + offset, key: rng.int(in: 0..<1_000_000)) }
                    nextID += items.count
                    storage.add(contentsOf: items)
                    sequential.add(contentsOf: items)
                }
                if !storage.ids.overlay.isEmpty { stepsWithOverlay += 1 }
                let expected = Array(sequential.rows), same = Array(storage.rows) == expected
                #expect(same, "rows — \(context)")
                #expect(storage.ids.count == expectedIndexCount(expected.count), "id count — \(context)")
                for (offset, row) in expected.enumerated() where storage[id: row.id] != row || storage.position(of: row.id) != offset {
                    Issue.record("id \(row.id) not indexed at \(offset) — \(context)")
                    break
                }
                for id in 2 * count ..< 2 * count + 20 where !expected.contains(where: { $0.id == id }) && storage[id: id] != nil {
                    Issue.record("absent id \(id) found — \(context)")
                }
            }
        }
        // Of 12 steps per seed, 5 in 8 are bulk edits.
        #expect(stepsWithOverlay > 3 * Int(seeds) && bulkEdits > 3 * Int(seeds), "overlay in \(stepsWithOverlay) steps, \(bulkEdits) bulk edits")
    }

    @Test("a bulk edit of a large list leaves the main id entries shared, until the overlay passes its bound")
    func largeListKeepsMainIDEntries() throws {
        let count = _Tuning.idOverlayMinimumEntries + 4_000
        var rng = SplitMix64(seed: 77)
        let storage = try #require(_ListStorage<TestRow>._build((0..<count).map { TestRow(id: $0, key: $0 * 10) }, comparator: .natural)?.storage)
        let bound = count / _Tuning.idOverlayListFraction
        // A fifth of the bound: re-keyed rows, new rows and removed rows.
        var run = _EditRun<TestRow>()
        run.add((0..<bound / 5).map { _ in
            let id = rng.int(in: 0..<count + 1_000)
            return TestRow(id: id, key: rng.int(in: 0..<count) * 10 + 1 + id % 7)
        })
        run.remove((0..<bound / 10).map { _ in rng.int(in: 0..<count) })
        #expect(Self.expectMatchesSequential(storage, run, "first edit"))
        let (first, _) = try #require(storage._editing(run))
        #expect(first.ids.entries.root === storage.ids.entries.root, "the main entries were copied")
        #expect(!first.ids.overlay.isEmpty && first.ids.overlay.count <= bound)

        // Putting every row back leaves no overlay entry: each item has the main entries' bits.
        var named = Set<Int>()
        run.forEachCall { call in
            switch call {
            case .add(let items): named.formUnion(items.map(\.id))
            case .remove(let ids): named.formUnion(ids)
            }
        }
        var undo = _EditRun<TestRow>()
        undo.remove(named.filter { $0 >= count })
        undo.add(named.filter { $0 < count }.map { TestRow(id: $0, key: $0 * 10) })
        #expect(Self.expectMatchesSequential(first, undo, "undo"))
        let (undone, _) = try #require(first._editing(undo))
        #expect(undone.ids.overlay.isEmpty && undone.ids.entries.root === storage.ids.entries.root && Array(undone.rows) == Array(storage.rows))

        // An edit that leaves the overlay past its bound folds it into the main entries.
        var more = _EditRun<TestRow>()
        more.add((0..<bound - bound / 10).map { TestRow(id: count + 2_000 + $0, key: $0 * 7_919 % count * 10 + 8) })
        #expect(Self.expectMatchesSequential(first, more, "past the bound"))
        let (second, _) = try #require(first._editing(more))
        #expect(second.ids.entries.root !== storage.ids.entries.root, "the overlay was not folded")
        #expect(second.ids.overlay.isEmpty && second.ids.entries.count == first.ids.count + more.count)
    }

    @Test("bulk edits with ties either give up or equal one-at-a-time calls", arguments: [4, 6, 128])
    func withTies(fanout: Int) {
        var taken = 0
        for seed in UInt64(0)..<200 {
            var rng = SplitMix64(seed: seed &* 17 &+ UInt64(fanout))
            let count = rng.int(in: 0..<300)
            let keys = rng.chance(0.5) ? 20 : 2_000
            let rows = (0..<count).map { TestRow(id: $0, key: rng.int(in: 0..<keys)) }
            let run = Self.randomRun(rows: rows, idRange: count, keys: keys, calls: rng.int(in: 1..<5), rng: &rng)
            if Self.expectMatchesSequential(Self.storage(rows, fanout: fanout), run, "fanout \(fanout) seed \(seed)") { taken += 1 }
        }
        #expect(taken > 20, "the bulk path was taken only \(taken) times")
    }

    @Test("removing most rows in bulk merges under-full nodes down to a valid tree", arguments: [4, 5, 16])
    func massRemoval(fanout: Int) {
        for seed in UInt64(0)..<60 {
            var rng = SplitMix64(seed: seed &+ 1_000)
            let count = rng.int(in: 50..<2_000)
            let rows = (0..<count).map { TestRow(id: $0, key: $0 * 2) }
            var run = _EditRun<TestRow>()
            let kept = rng.int(in: 0..<5)
            switch seed % 3 {
            case 0: run.remove(rows.map(\.id).filter { _ in !rng.chance(Double(kept) / Double(count)) })  // almost all, scattered
            case 1: run.remove(Array(rows.map(\.id).dropFirst(kept)))  // all but the first few
            default: run.remove(Array(rows.map(\.id).dropLast(kept)))  // all but the last few
            }
            run.add((0..<rng.int(in: 0..<3)).map { TestRow(id: count + $0, key: 2 * count + 2 * $0 + 1) })
            let context = "fanout \(fanout) seed \(seed)"
            let taken = Self.expectMatchesSequential(Self.storage(rows, fanout: fanout), run, context)
            #expect(taken, "the bulk path gave up — \(context)")
        }
    }

    @Test("inserting many rows into one leaf in bulk splits it into a valid tree", arguments: [4, 7, 32])
    func massInsertion(fanout: Int) {
        for seed in UInt64(0)..<40 {
            var rng = SplitMix64(seed: seed &+ 2_000)
            let count = rng.int(in: 1..<200)
            let rows = (0..<count).map { TestRow(id: $0, key: $0 * 10_000) }
            let gap = rng.int(in: 0..<count + 1)  // all new rows go between two neighbours (or at an end)
            var run = _EditRun<TestRow>()
            run.add((0..<rng.int(in: 1..<2_000)).map { TestRow(id: count + $0, key: gap * 10_000 - 5_000 + $0 + 1) }.shuffled(using: &rng))
            let context = "fanout \(fanout) seed \(seed)"
            let taken = Self.expectMatchesSequential(Self.storage(rows, fanout: fanout), run, context)
            #expect(taken, "the bulk path gave up — \(context)")
        }
    }

    @Test("large runs on a longer list equal one-at-a-time calls", arguments: [16, 128])
    func largeRuns(fanout: Int) {
        for seed in UInt64(0)..<2 {
            var rng = SplitMix64(seed: seed &+ 4_000)
            let rows = (0..<12_000).map { TestRow(id: $0, key: $0 * 1_000) }
            var run = _EditRun<TestRow>()
            run.add((0..<3_000).map { _ in
                let id = rng.int(in: 0..<15_000)
                return TestRow(id: id, key: rng.int(in: 0..<12_000_000) * 1_000 + 1 + id % 997, payload: rng.int(in: 0..<3))
            })
            run.remove((0..<1_000).map { _ in rng.int(in: 0..<15_000) })
            if seed % 2 == 1 {  // a new row that ties with a row the run leaves alone: the bulk path gives up
                var named = Set<Int>()
                for call in run.calls {
                    switch call {
                    case .add(let items): named.formUnion(items.map(\.id))
                    case .remove(let ids): named.formUnion(ids)
                    }
                }
                let untouched = rows.first { !named.contains($0.id) }?.key ?? 0
                run.add([TestRow(id: 30_000, key: untouched)])
            }
            let context = "fanout \(fanout) seed \(seed)"
            let taken = Self.expectMatchesSequential(Self.storage(rows, fanout: fanout), run, context)
            #expect(taken == (seed % 2 == 0), "bulk path taken: \(taken) — \(context)")
        }
    }

    @Test("a pass cut in two finds a tie across the cut, and gives up exactly when the whole pass does")
    func tieAcrossTheCut() {
        // For each node boundary of the level the row pass is cut at, a run adds rows
        // spread around it so that the cut falls there, removes the row just after it and
        // adds a new row with that row's key. The new row is then the first row of the
        // later half; whether it ties with the last row of the earlier half (in the list
        // of tied pairs) or not (distinct keys) is seen only when the halves are joined.
        var seams = (tied: 0, untied: 0)
        for isPaired in [false, true] {
            let rows = (0..<1_200).map { TestRow(id: $0, key: isPaired ? ($0 + 1) / 2 * 10 : $0 * 10) }
            let storage = Self.storage(rows, fanout: 4)
            func cut(of run: _EditRun<TestRow>) -> _CountedBTree<TestRow>._Cut? {
                var ids = _IDEditor<TestRow>(run)
                _ = storage.ids.entries._editing(with: &ids)
                let editor = _RowEditor(
                    owners: ids, sortedInsertions: _RowEditor.sortedInsertions(of: ids, comparator: .natural),
                    sortedStoredItems: _RowEditor.sortedStoredItems(of: ids, comparator: .natural), comparator: .natural)
                return storage.rows._cut(for: editor)
            }
            // New rows around `middle`, none tied with a row or with each other.
            func spread(around middle: Int) -> [TestRow] {
                stride(from: max(0, 2 * middle - rows.count), to: min(rows.count, 2 * middle), by: 3).map {
                    TestRow(id: 10_000 + $0, key: rows[$0].key + 1 + $0 % 2)
                }
            }
            var probe = _EditRun<TestRow>()
            probe.add(spread(around: rows.count / 2))
            guard let level = cut(of: probe)?.level else {
                Issue.record("no cut for a run of \(probe.count) edits")
                return
            }
            var boundary = 0
            for count in level.counts.dropLast() {
                boundary += count
                guard boundary > 200 && boundary < 1_000 else { continue }
                var run = _EditRun<TestRow>()
                run.add(spread(around: boundary))
                run.remove([rows[boundary].id])
                run.add([TestRow(id: 20_000, key: rows[boundary].key)])
                guard cut(of: run)?.offset == boundary else { continue }
                let tied = rows[boundary - 1].key == rows[boundary].key
                if tied { seams.tied += 1 } else { seams.untied += 1 }
                let context = "paired: \(isPaired), cut at \(boundary)"
                let taken = Self.expectMatchesSequential(storage, run, context)
                let tiesAnyRow = rows.contains { $0.id != rows[boundary].id && $0.key == rows[boundary].key }
                #expect(taken == !tiesAnyRow, "bulk path taken: \(taken), tie across the cut: \(tied) — \(context)")
            }
        }
        #expect(seams.tied >= 1 && seams.untied >= 1, "cuts where planned: \(seams)")
    }

    @Test("an unchanged item put back after an earlier call of the run goes where one-at-a-time calls put it")
    func itemPutBack() {
        // Rows tied at key 5: one at a time, removing #0 and adding it back (or re-keying it
        // and keying it back) moves it after the other rows with its key.
        let rows = [TestRow(id: 1, key: 5), TestRow(id: 0, key: 5), TestRow(id: 2, key: 5), TestRow(id: 3, key: 9)]
        var removedAndAdded = _EditRun<TestRow>()
        removedAndAdded.remove([0])
        removedAndAdded.add([TestRow(id: 0, key: 5)])
        var rekeyedAndBack = _EditRun<TestRow>()
        rekeyedAndBack.add([TestRow(id: 0, key: 7)])
        rekeyedAndBack.add([TestRow(id: 0, key: 5)])
        var untied = _EditRun<TestRow>()  // no tie: the row lands where it was, in bulk
        untied.remove([3])
        untied.add([TestRow(id: 3, key: 9)])
        for (name, run) in [("remove, add", removedAndAdded), ("re-key, key back", rekeyedAndBack), ("untied", untied)] {
            for fanout in [4, 128] {
                let storage = Self.storage(rows, fanout: fanout)
                var sequential = storage
                sequential.apply(run)
                let bulk = storage._editing(run).map { Array($0.storage.rows) } ?? Array(sequential.rows)
                #expect(bulk == Array(sequential.rows), "\(name), fanout \(fanout)")
                Self.expectMatchesSequential(storage, run, "\(name), fanout \(fanout)")
            }
        }
    }

    @Test("runs naming the same ids several times, with many ties, equal one-at-a-time calls", arguments: [4, 5])
    func repeatedIDsWithTies(fanout: Int) {
        for seed in UInt64(0)..<400 {
            var rng = SplitMix64(seed: seed &+ 5_000)
            let rows = (0..<rng.int(in: 2..<60)).map { TestRow(id: $0, key: rng.int(in: 0..<4)) }
            var run = _EditRun<TestRow>()
            for _ in 0..<rng.int(in: 1..<8) {
                let row = rows[rng.int(in: 0..<rows.count)]
                switch rng.int(in: 0..<4) {
                case 0: run.remove([row.id])
                case 1: run.add([row])  // put back as it was
                case 2: run.add([TestRow(id: row.id, key: rng.int(in: 0..<4), payload: row.payload)])
                default: run.add([TestRow(id: rows.count + rng.int(in: 0..<3), key: rng.int(in: 0..<4))])
                }
            }
            Self.expectMatchesSequential(Self.storage(rows, fanout: fanout), run, "fanout \(fanout) seed \(seed)")
        }
    }

    @Test("ids whose hashes collide are left to the one-at-a-time path or edited correctly")
    func collidingHashes() {
        for seed in UInt64(0)..<60 {
            var rng = SplitMix64(seed: seed &+ 3_000)
            let rows = (0..<rng.int(in: 1..<300)).map { ClashingRow(id: ClashingID(value: $0), key: $0 * 3) }
            var run = _EditRun<ClashingRow>()
            run.add((0..<rng.int(in: 1..<60)).map { _ in ClashingRow(id: ClashingID(value: rng.int(in: 0..<600)), key: rng.int(in: 0..<3_000) * 3 + 1) })
            run.remove((0..<rng.int(in: 0..<30)).map { _ in ClashingID(value: rng.int(in: 0..<600)) })
            var sequentialIDs = _IDIndex<ClashingRow>()
            var built = _ListStorage<ClashingRow>(comparator: .natural)
            for row in rows { built.add(row) }
            sequentialIDs.entries = _CountedBTree(Array(built._fullIndex.entries), fanout: .init(leaf: 4, branch: 4))
            let storage = _ListStorage(rows: _CountedBTree(Array(built.rows), fanout: .init(leaf: 4, branch: 4)), ids: sequentialIDs, comparator: .natural)
            var sequential = storage
            sequential.apply(run)
            if let (edited, _) = storage._editing(run) {
                #expect(Array(edited.rows) == Array(sequential.rows), "seed \(seed)")
                for row in sequential.rows { #expect(edited[id: row.id] == row, "seed \(seed)") }
                #expect(edited.ids.count == sequential.ids.count, "seed \(seed)")
            }
        }
    }

    /// The leaves of `tree` that `old` does not share, with their elements.
    static func newLeaves<Element>(of tree: _CountedBTree<Element>, notIn old: _CountedBTree<Element>) -> [[Element]] {
        let shared = Set(old.leafNodes.map(ObjectIdentifier.init))
        return tree.leafNodes.filter { !shared.contains(ObjectIdentifier($0)) }.map(\.elements)
    }

    @Test("a bulk edit allocates each leaf it writes for the rows it holds, not for the leaf capacity")
    func rebuiltLeavesAreSizedToTheirRows() {
        let rows = (0..<4_000).map { TestRow(id: $0, key: $0 * 10) }
        let storage = Self.storage(rows, fanout: 64)
        var run = _EditRun<TestRow>()
        run.add((0..<100).map { TestRow(id: 10_000 + $0, key: $0 * 400 + 5) })  // spread over the list
        run.remove((0..<100).map { $0 * 39 + 1 })
        guard let (edited, _) = storage._editing(run) else {
            Issue.record("the bulk path gave up")
            return
        }
        var sequential = storage
        sequential.apply(run)
        #expect(Array(edited.rows) == Array(sequential.rows))
        let rowLeaves = Self.newLeaves(of: edited.rows, notIn: storage.rows)
        let idLeaves = Self.newLeaves(of: edited.ids.entries, notIn: storage.ids.entries)
        // 200 named rows over leaves of at most 64: most leaves are rewritten, many split.
        #expect(rowLeaves.count > 40 && idLeaves.count > 40, "\(rowLeaves.count) row and \(idLeaves.count) id leaves written")
        for leaf in rowLeaves {
            #expect(leaf.capacity - leaf.count <= 2, "a leaf of \(leaf.count) rows has room for \(leaf.capacity)")
        }
        for leaf in idLeaves {
            #expect(leaf.capacity - leaf.count <= 2, "a leaf of \(leaf.count) id entries has room for \(leaf.capacity)")
        }
    }
}

/// An id whose hash takes only seven values.
private struct ClashingID: Hashable, Sendable, CustomStringConvertible {
    var value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(value % 7) }
    var description: String { "c\(value)" }
}

private struct ClashingRow: Hashable, DataSourceComparable {
    var id: ClashingID
    var key: Int
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.key < rhs.key }
}

extension _EditRun {
    /// Every call, in order, as one array, for tests to read and rewrite a run.
    var calls: [Call] {
        get {
            guard let firstCall else { return [] }
            return [firstCall] + laterCalls
        }
        set {
            firstCall = newValue.first
            laterCalls = Array(newValue.dropFirst())
        }
    }
}
