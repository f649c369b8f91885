import Dispatch
import ListEngine
@testable import ListPagination
import ListTestSupport
import Synchronization
import Testing

/// A windowed paginator read the way a user reads it: after every page, once nothing
/// loads and `flush()` returned, over a long scroll and with the cores kept busy.
@Suite(.timeLimit(.minutes(5))) struct PaginatorBoundTests {
    /// Rows 0 ..< `count`, row *k* keyed *k*, computed when asked for.
    static func loader(count: Int, limit: Int) -> KeysetLoader<TestRow, Int> {
        KeysetLoader(limit: limit, key: \.key) { cursor, want in
            let range: Range<Int> = switch cursor {
            case nil: 0 ..< min(count, want)
            case .after(let key)?: min(count, key + 1) ..< min(count, key + 1 + want)
            case .before(let key)?: max(0, min(count, key) - want) ..< min(count, key)
            case .through(let key)?: max(0, min(count, key + 1) - want) ..< min(count, key + 1)
            }
            return range.map { TestRow(id: $0, key: $0) }
        }
    }

    @Test("scrolled through 200,000 rows with the cores busy, a settled window never holds more than maxLoadedRows, and each page is one batch")
    func aSettledWindowIsNeverOverItsBound() async {
        let count = 200_000, pageSize = 50, bound = 400
        let paginator = Paginator(
            dataSource: ListDataSource<TestRow>(), loader: Self.loader(count: count, limit: pageSize),
            prefetchDistance: 20, maxLoadedRows: bound, loadingIndicatorDelay: .zero, retryPolicy: .none
        )
        let recorder = BatchRecorder<TestRow>()
        paginator.dataSource.attach(recorder)
        // Two threads that keep the cores busy, as a loaded server would.
        let stop = Atomic<Bool>(false)
        let spinners = DispatchGroup()
        for _ in 0 ..< 2 {
            DispatchQueue.global(qos: .utility).async(group: spinners) {
                var spins = 0
                while !stop.load(ordering: .relaxed) { spins &+= 1 }
            }
        }
        defer { stop.store(true, ordering: .relaxed) }

        var readings = 0, over: [Int] = []
        paginator.loadNextPage()
        while true {
            while paginator.status.append == .loading || paginator.status.prepend == .loading {
                try? await Task.sleep(for: .microseconds(200))
            }
            let rows = await paginator.dataSource.flush()
            readings += 1
            if rows.count > bound { over.append(rows.count) }
            if paginator.status.append == .exhausted || readings > 10_000 { break }
            paginator.itemDidAppear(at: rows.count - 1)
        }
        stop.store(true, ordering: .relaxed)
        spinners.wait()

        let rows = await paginator.dataSource.flush()
        let batches = recorder.take()
        #expect(over.isEmpty, "\(over.count) of \(readings) readings over \(bound) rows: \(over.prefix(5))")
        #expect(rows.last?.id == count - 1 && rows.count <= bound)
        // The attach batch, then one batch per page, each page loaded once going down.
        #expect(batches.count == 1 + count / pageSize, "\(batches.count) batches for \(count / pageSize) pages")
        #expect(batches.allSatisfy { $0.new.count <= bound }, "a batch over the bound: \(batches.map(\.new.count).max() ?? 0) rows")
    }
}
