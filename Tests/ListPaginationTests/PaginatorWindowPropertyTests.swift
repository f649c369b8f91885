import Foundation
import ListEngineTesting
@testable import ListPagination
import ListTestSupport
import Testing

/// The bounded window against a simple model, over many seeds: random scrolls in both
/// directions, jumps, refreshes, failures in either direction, and live changes, some
/// of them made while a page is loading, after the page was read.
///
/// After every step, once the paginator is quiet: the loaded rows are one contiguous
/// slice of the source, row for row; there are never more than `maxLoadedRows` of them
/// (unless the page at the far end holds the visible row, which is never dropped);
/// each page is requested once per pass in one direction (a pass ends with a jump, a
/// refresh or a drop at that end; a failed page may be asked for again); the row last
/// reported visible is never dropped.
@Suite(.timeLimit(.minutes(10))) struct PaginatorWindowPropertyTests {

    /// The source: rows with unique keys, and scripted failures.
    final class Source: Sendable {
        struct State {
            var rows: [TestRow]
            var failAfter = false
            var failBefore = false
            var nextID: Int
            var nextPayload = 1
            /// Loads served so far: every third one changes a row right after reading
            /// its page, while the paginator still waits for it.
            var fetches = 0
            /// The rows those changes moved or deleted.
            var changedDuringLoads: Set<Int> = []
        }

        let state: LockedState<State>
        /// Tells the paginator about a change made during a load: `upsert` for a row,
        /// `remove(ids:)` for an id alone.
        let onChangeDuringLoad = LockedState<(@Sendable (TestRow?, Int) -> Void)?>(nil)

        init(count: Int) {
            let rows = (0..<count).map { TestRow(id: $0, key: $0 * 10) }
            state = LockedState(State(rows: rows, nextID: count))
        }

        var rows: [TestRow] { state.withLock { $0.rows } }

        func fetch(_ cursor: KeysetCursor<Int>?, _ count: Int) async throws -> [TestRow] {
            await Task.yield()
            let page = try read(cursor, count)
            // A change to the source after the page was read and before the paginator
            // applies it: the page holds the row as it was.
            let change: (TestRow?, Int)? = state.withLock { state in
                state.fetches += 1
                guard state.fetches % 3 == 0, !state.rows.isEmpty else { return nil }
                let victim = state.rows[(state.fetches * 7_919) % state.rows.count]
                state.changedDuringLoads.insert(victim.id)
                if state.fetches % 2 == 0 {
                    state.rows.removeAll { $0.id == victim.id }
                    return (nil, victim.id)
                }
                var key = (state.fetches * 104_729) % 2_100
                while state.rows.contains(where: { $0.key == key }) { key += 1 }
                var moved = victim
                moved.key = key
                moved.payload += 1
                state.rows.removeAll { $0.id == victim.id }
                state.rows.insert(moved, at: state.rows.firstIndex { $0.key > key } ?? state.rows.count)
                return (moved, moved.id)
            }
            if let change, let report = onChangeDuringLoad.withLock({ $0 }) { report(change.0, change.1) }
            return page
        }

        private func read(_ cursor: KeysetCursor<Int>?, _ count: Int) throws -> [TestRow] {
            try state.withLock { state in
                switch cursor {
                case nil:
                    return Array(state.rows.prefix(count))
                case .after(let key)?:
                    if state.failAfter { state.failAfter = false; throw TestFailure() }
                    return Array(state.rows.lazy.filter { $0.key > key }.prefix(count))
                case .before(let key)?:
                    if state.failBefore { state.failBefore = false; throw TestFailure() }
                    return Array(state.rows.filter { $0.key < key }.suffix(count))
                case .through(let key)?:
                    if state.failBefore { state.failBefore = false; throw TestFailure() }
                    return Array(state.rows.filter { $0.key <= key }.suffix(count))
                }
            }
        }

        /// Replaces or inserts `row`, keeping the rows sorted by key.
        func put(_ row: TestRow) {
            state.withLock { state in
                state.rows.removeAll { $0.id == row.id }
                let index = state.rows.firstIndex { $0.key > row.key } ?? state.rows.count
                state.rows.insert(row, at: index)
            }
        }
    }

    typealias Windowed = Paginator<KeysetLoader<TestRow, Int>, ManualClock>

    /// What the runs did, so that a run that never reaches a case does not pass unseen.
    struct Coverage {
        var topDrops = 0, bottomDrops = 0, previousPages = 0, failedPreviousPages = 0, failedNextPages = 0, liveAdds = 0
    }

    @Test func theWindowIsAlwaysOneContiguousBoundedSliceOfTheSource() async throws {
        var coverage = Coverage()
        // WINDOW_SEED=n replays one seed; WINDOW_SEEDS=n runs more of them.
        let environment = ProcessInfo.processInfo.environment
        let seeds: Range<UInt64> = if let seed = environment["WINDOW_SEED"].flatMap(UInt64.init) {
            seed..<seed + 1
        } else {
            0..<(environment["WINDOW_SEEDS"].flatMap(UInt64.init) ?? 500)
        }
        for seed in seeds {
            let failures = await Self.run(seed: seed, steps: 50, coverage: &coverage)
            if !failures.isEmpty {
                Issue.record("seed \(seed): \(failures.joined(separator: "; "))")
                return
            }
        }
        guard seeds.count >= 500 else { return }
        #expect(coverage.topDrops > 100 && coverage.bottomDrops > 100, "\(coverage)")
        #expect(coverage.previousPages > 500 && coverage.liveAdds > 100, "\(coverage)")
        #expect(coverage.failedPreviousPages > 50 && coverage.failedNextPages > 50, "\(coverage)")
    }

    /// Waits until the paginator is quiet and its changes are delivered: as long as that
    /// takes on a loaded machine, where the loader's tasks may wait long for a thread,
    /// up to a minute, after which the checks that follow report what they see.
    static func quiesce(_ paginator: Windowed) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        while clock.now < deadline {
            await paginator.dataSource.flush()
            if paginator._isQuiet {
                await paginator.dataSource.flush()
                if paginator._isQuiet { return }
            }
            await Task.yield()
        }
        Issue.record("the paginator was still busy after a minute")
    }

    /// Runs one seed; returns what went wrong (empty: nothing).
    static func run(seed: UInt64, steps: Int, coverage: inout Coverage) async -> [String] {
        var random = SplitMix64(seed: seed)
        // Windows of a few pages, and windows smaller than two pages, whose visible
        // page often stops a drop.
        let pageSize = [5, 10][random.int(in: 0..<2)]
        let maxRows = [12, 25, 50][random.int(in: 0..<3)]
        let prefetch = [1, 3][random.int(in: 0..<2)]
        let source = Source(count: 200)
        let loader = KeysetLoader<TestRow, Int>(limit: pageSize, key: \.key) { cursor, count in
            try await source.fetch(cursor, count)
        }
        let paginator = Paginator(
            dataSource: ListDataSource<TestRow>(), loader: loader, prefetchDistance: prefetch, maxLoadedRows: maxRows,
            loadingIndicatorDelay: .zero, retryPolicy: .none, clock: ManualClock()
        )
        // Each load the paginator starts, with its trim counts then, in the order it
        // decides them: a page dropped and asked for again within one step starts a new
        // pass exactly where the drop was.
        let started = LockedState<[(cursor: KeysetCursor<Int>?, trims: [Int])]>([])
        paginator._shared.withLock { $0.loadStarted = { cursor, trims in started.withLock { $0.append((cursor, trims)) } } }
        source.onChangeDuringLoad.withLock {
            $0 = { [weak paginator] row, id in
                if let row { paginator?.upsert([row]) } else { paginator?.remove(ids: [id]) }
            }
        }
        var failures: [String] = []
        var log: [String] = []
        // The cursors asked for in the current pass of each direction, and the last
        // failed one, which may be asked for again.
        var passAfter: Set<KeysetCursor<Int>> = [], passBefore: Set<KeysetCursor<Int>> = []
        var failedAfter: KeysetCursor<Int>?, failedBefore: KeysetCursor<Int>?
        var seenRequests = 0
        var trims = paginator._trimCounts
        var visibleID: Int?

        paginator.loadNextPage()
        for step in 0..<steps {
            await quiesce(paginator)
            // Check the loads started since the last step, pass by pass.
            let requests = started.withLock { $0 }
            let trimsBefore = trims
            for (cursor, counts) in requests[seenRequests...] {
                if counts[0] != trims.top { passBefore = [] }
                if counts[1] != trims.bottom { passAfter = [] }
                trims = (counts[0], counts[1])
                switch cursor {
                case .after?:
                    if let cursor, !passAfter.insert(cursor).inserted, cursor != failedAfter {
                        failures.append("step \(step): \(cursor) asked for twice in one pass")
                    }
                case .before?, .through?:
                    coverage.previousPages += 1
                    if let cursor, !passBefore.insert(cursor).inserted, cursor != failedBefore {
                        failures.append("step \(step): \(cursor) asked for twice in one pass")
                    }
                case nil:
                    break
                }
            }
            seenRequests = requests.count
            // Drops after the last load start a new pass at their end.
            let now = paginator._trimCounts
            if now.top != trims.top { passBefore = [] }
            if now.bottom != trims.bottom { passAfter = [] }
            coverage.topDrops += now.top - trimsBefore.top
            coverage.bottomDrops += now.bottom - trimsBefore.bottom
            trims = now
            // A cursor that failed may be asked for again (a retry).
            if case .failed = paginator.status.append {
                coverage.failedNextPages += 1
                failedAfter = requests.last { if case .after? = $0.cursor { true } else { false } }?.cursor
            }
            if case .failed = paginator.status.prepend {
                coverage.failedPreviousPages += 1
                failedBefore = requests.last { if case .after? = $0.cursor { false } else { $0.cursor != nil } }?.cursor
            }
            // Check the window.
            let rows = Array(paginator.dataSource.snapshot)
            let all = source.rows
            if rows.count > maxRows {
                // Allowed only when the page at an end holds the visible row, so that no
                // more pages can go, or only one page is left.
                let snapshot = paginator.dataSource.snapshot
                let ledger = paginator._shared.withLock { $0.machine.ledger }.compactMap(\.bounds)
                let visible = paginator._visibleOffset(in: snapshot)
                let ends = [ledger.first, ledger.last].compactMap { $0.flatMap { Windowed._range(of: $0, in: snapshot) } }
                // While a jump or refresh is pending (it failed), the old rows wait for it
                // untouched, as they were.
                let replacing = paginator._shared.withLock { $0.machine.isReplacing }
                let blocked = replacing || ledger.count <= 1 || visible.map { offset in ends.contains { $0.contains(offset) } } == true
                if !blocked {
                    failures.append("step \(step): \(rows.count) rows loaded, more than \(maxRows), in \(ledger.count) pages, row \(visible.map(String.init) ?? "none") visible")
                }
            }
            if let first = rows.first {
                if let start = all.firstIndex(where: { $0.id == first.id }), start + rows.count <= all.count {
                    if Array(all[start..<start + rows.count]) != rows {
                        failures.append("step \(step): the rows are not the source's rows \(start)..<\(start + rows.count): \(rows.map(\.key)) vs \(all[start..<start + rows.count].map(\.key))")
                    }
                } else {
                    failures.append("step \(step): the rows \(rows.map(\.key)) are not a slice of the source")
                }
            }
            if Set(rows.map(\.id)).count != rows.count { failures.append("step \(step): a row is loaded twice") }
            if !failures.isEmpty {
                failures.append("after \(log.suffix(8).joined(separator: ", "))")
                if ProcessInfo.processInfo.environment["WINDOW_DEBUG"] != nil {
                    failures.append("log \(log); requests \(requests.map { ($0.cursor.map(String.init(describing:)) ?? "first") + " \($0.trims)" })")
                }
                return failures
            }
            // The next step.
            let count = rows.count
            // A failed jump or refresh is tried again by the next load: it replaces the rows.
            var keepsVisible = !paginator._shared.withLock { $0.machine.isReplacing }
            switch random.int(in: 0..<100) {
            case 0..<45 where count > 0:
                let offset = switch random.int(in: 0..<3) {
                case 0: random.int(in: 0..<min(count, prefetch + 2))
                case 1: random.int(in: max(0, count - prefetch - 2)..<count)
                default: random.int(in: 0..<count)
                }
                visibleID = rows[offset].id
                log.append("see \(offset)/\(count)")
                paginator.itemDidAppear(at: offset)
            case 45..<50:
                log.append("next")
                paginator.loadNextPage()
            case 50..<55:
                log.append("previous")
                paginator.loadPreviousPage()
            case 55..<60:
                let cursor: KeysetCursor<Int>? = switch random.int(in: 0..<3) {
                case 0: nil
                case 1: .after(random.int(in: 0..<2_100))
                default: .before(random.int(in: 0..<2_100))
                }
                log.append("jump \(cursor.map(String.init(describing:)) ?? "start")")
                passAfter = []
                passBefore = []
                keepsVisible = false
                visibleID = nil
                paginator.jump(to: cursor)
            case 60..<62:
                log.append("refresh")
                passAfter = []
                passBefore = []
                keepsVisible = false
                visibleID = nil
                paginator.refresh()
            case 62..<68:
                let after = random.chance(0.5)
                log.append("fail \(after ? "after" : "before")")
                source.state.withLock { if after { $0.failAfter = true } else { $0.failBefore = true } }
            case 68..<72:
                log.append("retry")
                paginator.retry()
            default:
                keepsVisible = false
                let change = random.int(in: 0..<3)
                let all = source.rows
                if change == 0 || all.isEmpty {
                    // A new row with an unused key.
                    var key = random.int(in: 0..<2_100)
                    while all.contains(where: { $0.key == key }) { key += 1 }
                    let row = source.state.withLock { state in
                        defer { state.nextID += 1 }
                        return TestRow(id: state.nextID, key: key)
                    }
                    source.put(row)
                    log.append("insert \(key)")
                    if paginator._shared.withLock({ Windowed._admits(row, $0.machine.window) }) { coverage.liveAdds += 1 }
                    paginator.upsert([row])
                } else if change == 1 {
                    // A row moves to an unused key, or only its payload changes.
                    var row = all[random.int(in: 0..<all.count)]
                    if random.chance(0.5) {
                        var key = random.int(in: 0..<2_100)
                        while all.contains(where: { $0.key == key }) { key += 1 }
                        row.key = key
                    }
                    row.payload += 1
                    source.put(row)
                    log.append("move #\(row.id) to \(row.key)")
                    paginator.upsert([row])
                } else {
                    let row = all[random.int(in: 0..<all.count)]
                    source.state.withLock { $0.rows.removeAll { $0.id == row.id } }
                    log.append("delete #\(row.id)")
                    paginator.remove(ids: [row.id])
                }
            }
            // The row last reported visible is never dropped.
            await quiesce(paginator)
            let changedByTheSource = visibleID.map { id in source.state.withLock { $0.changedDuringLoads.contains(id) } } ?? false
            if keepsVisible, !changedByTheSource, let id = visibleID, rows.contains(where: { $0.id == id }), !paginator.dataSource.snapshot.contains(id: id) {
                failures.append("step \(step): the visible row #\(id) was dropped")
                failures.append("after \(log.suffix(8).joined(separator: ", "))")
                return failures
            }
        }
        return failures
    }
}
