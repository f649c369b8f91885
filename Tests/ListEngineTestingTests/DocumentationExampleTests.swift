import ListEngineTesting
import ListPagination
import Synchronization
import TerminalListRenderer
import Testing

// The examples of the ListEngineTesting and TerminalListRenderer documentation
// (Sources/*/*.docc), as they are printed there, so that they keep compiling and passing.

/// Fails its first load with a timeout, then serves one page of three rows.
final class FlakyLoader: PageLoader {
    private let attempts = Mutex(0)

    func loadPage(at cursor: Int?) async throws -> Page<DataSourceItem<String>, Int> {
        let attempt = attempts.withLock { count in
            count += 1
            return count
        }
        if attempt == 1 { throw PaginationError.timedOut(url: nil) }
        let rows = ["a", "b", "c"].enumerated().map { DataSourceItem(uid: $1, value: $1.uppercased(), index: Double($0)) }
        return Page(items: rows, nextCursor: nil)
    }
}

/// Takes one second on `clock` to load its only page.
struct SlowLoader: PageLoader {
    let clock: ManualClock

    func loadPage(at cursor: Int?) async throws -> Page<DataSourceItem<String>, Int> {
        try await clock.sleep(for: .seconds(1))
        return Page(items: [DataSourceItem(uid: "a", value: "A", index: 0)], nextCursor: nil)
    }
}

/// A row of the terminal examples.
struct Player: Hashable, DataSourceComparable {
    var id: String
    var name: String
    var score: Int

    /// Highest score first; ties by id.
    static func < (lhs: Player, rhs: Player) -> Bool {
        lhs.score != rhs.score ? lhs.score > rhs.score : lhs.id < rhs.id
    }
}

@Suite(.timeLimit(.minutes(5))) struct DocumentationExampleTests {
    @Test func aTimeoutIsRetriedAfterTheBackoff() async {
        let clock = ManualClock()
        let paginator = Paginator(
            loader: FlakyLoader(),
            loadingIndicatorDelay: .zero,
            retryPolicy: RetryPolicy(maxAttempts: 2, initialDelay: .seconds(1), jitter: 0),
            clock: clock
        )
        paginator.loadNextPage()
        await clock.waitForSleepers(count: 1)  // the first attempt failed; the retry waits
        #expect(paginator.status.failedAttempts == 1)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)       // not yet
        clock.advance(by: .milliseconds(1))
        for await state in paginator.states() where state == .exhausted { break }
        #expect(await paginator.dataSource.flush().count == 3)
    }

    @Test func onlyASlowLoadShowsTheLoadingIndicator() async {
        let clock = ManualClock()
        let paginator = Paginator(loader: SlowLoader(clock: clock), loadingIndicatorDelay: .milliseconds(300), clock: clock)
        paginator.loadNextPage()
        await clock.waitForSleepers(count: 2)  // the indicator's delay and the load
        #expect(clock.pendingDeadlines == [.init(offset: .milliseconds(300)), .init(offset: .seconds(1))])
        clock.advance(by: .milliseconds(300))
        for await status in paginator.statuses() where status.isShowingLoadingIndicator { break }
        clock.advance(by: .milliseconds(700))
        for await status in paginator.statuses() where status.state == .exhausted {
            #expect(!status.isShowingLoadingIndicator)
            break
        }
    }

    @Test func rowsInsertedAboveTheViewportDoNotMoveTheRowsOnScreen() async {
        let size = TerminalSize(rows: 4, columns: 20)
        let output = OutputBuffer()
        let renderer = TerminalListRenderer<DataSourceItem<String>>(size: size, mode: .ansi(colors: true), output: output) {
            $0.value
        }
        let rows = ListDataSource((1...50).map { DataSourceItem(uid: "r\($0)", value: "row \($0)", index: Double($0)) })
        rows.attach(renderer)
        await rows.flush()
        renderer.scroll(toTop: 10)
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(output.take())
        #expect(screen.textLines.prefix(3) == ["row 11", "row 12", "row 13"])

        rows.add([DataSourceItem(uid: "r0", value: "row 0", index: 0), DataSourceItem(uid: "r-1", value: "row -1", index: -1)])
        await rows.flush()
        screen.feed(output.take())
        #expect(screen.textLines.prefix(3) == ["row 11", "row 12", "row 13"])
        #expect(renderer.viewport.top == 12)
        #expect(screen.anomalies.isEmpty)
    }

    @Test func incrementalUpdatesEqualAFullRedraw() async {
        let size = TerminalSize(rows: 6, columns: 24)
        let output = OutputBuffer()
        let renderer = TerminalListRenderer<Player>(size: size, mode: .ansi(colors: true), output: output) { player, _ in
            StyledText(player.name) + StyledText(" \(player.score)", style: TextStyle(foreground: .green))
        }
        let players = ListDataSource((1...40).map { Player(id: "p\($0)", name: "Player \($0)", score: 1_000 - $0) })
        players.attach(renderer)
        await players.flush()
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(output.take())

        players.add(Player(id: "p3", name: "Player 3", score: 2_000))  // moves to the top
        players.remove(ids: ["p2"])
        await players.flush()
        screen.feed(output.take())

        renderer.redraw()
        var full = VirtualScreen(rows: size.rows, columns: size.columns)
        full.feed(output.take())
        #expect(screen.cells == full.cells)
        #expect(screen.anomalies.isEmpty)
    }

    @Test func theStatusLineExample() async {
        let players = ListDataSource((1...2_500).map { Player(id: "p\($0)", name: "Player \($0)", score: $0) })
        let renderer = TerminalListRenderer<Player>(size: TerminalSize(rows: 24, columns: 80), mode: .ansi(colors: true), output: OutputBuffer()) {
            $0.name
        }
        players.attach(renderer)
        await players.flush()
        renderer.updateStatus { line in
            line.isLoading = true
            line.lastError = "page 3: HTTP 500"
            line.note = "by score · q quit"
            line.trailingRow = StyledText("  Loading…", style: TextStyle(isDim: true))
        }
        #expect(renderer.frameText().last == " v1 · 1/2,500 · loading… · ✗ page 3: HTTP 500 · by score · q quit")
    }

    @Test func theTextExamples() {
        #expect(DisplayWidth.of("王小明") == 6)
        #expect(TerminalText.truncated("王小明 wins", toWidth: 5) == "王小…")
        let api = HTTPPageLoader<DataSourceItem<String>>(
            url: URL(string: "https://api.example.com/articles?lang=en")!,
            mode: .pageNumber,
            pageSize: 25,
            parameterNames: .init(limit: "per_page"),
            headers: ["Authorization": "Bearer token"]
        )
        #expect(api.requestURL(for: .page(3)).absoluteString == "https://api.example.com/articles?lang=en&page=3&per_page=25")
        let policy = RetryPolicy(maxAttempts: 4, initialDelay: .milliseconds(250))
        #expect(policy.delay(beforeRetry: 1) == .milliseconds(250))
        #expect(policy.delay(beforeRetry: 3) == .seconds(1))
    }
}

import struct Foundation.URL
