import Dispatch
import Foundation
import LeaderboardFixtures
import ListPagination
import TerminalListRenderer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting the demo from the options: the data, the loader, and the terminal or plain frames.
///
/// The generic functions that set the demo up return, and only ``run(_:)`` hands the
/// main thread to the main queue. (Built with `-O`, Swift 6.3 miscompiled the loader
/// passed down a chain of generic functions that never return: a field of it read as
/// garbage and the release build stopped at an unreachable instruction.)
enum LeaderboardProgram {
    /// Runs the leaderboard; never returns.
    static func run(_ options: DemoOptions) -> Never {
        start(options)
        dispatchMain()
    }

    /// Sets the leaderboard up, for the main queue to run.
    private static func start(_ options: DemoOptions) {
        let interactive = !options.noTTY && TerminalSession.isTerminal(0) && TerminalSession.isTerminal(1)
        if let players = options.players {
            let source = GeneratedLeaderboard(count: players)
            let loader = KeysetLoader<Player, LiveLeaderboard.Key>(limit: options.pageSize, key: LiveLeaderboard.Key.init) { cursor, count in
                source.page(cursor, limit: count)
            }
            let window = LeaderboardDemo<KeysetLoader<Player, LiveLeaderboard.Key>>.Window(source: source, lastPage: .before(GeneratedLeaderboard.end))
            launch(loader: loader, server: nil, feed: [], window: window, options: options, interactive: interactive)
            return
        }
        if let url = options.url {
            let mode: HTTPPageLoader<Player>.Mode = switch options.resolvedURLMode {
            case .page: .pageNumber
            case .offset: .offset
            case .cursor: .cursor
            }
            let loader = HTTPPageLoader<Player>(url: url, mode: mode, pageSize: options.pageSize)
            launch(loader: loader, server: nil, feed: [], options: options, interactive: interactive)
            return
        }
        let fixtures: FixtureDirectory
        let players: [Player]
        let feed: [FeedEvent]
        do {
            if let path = options.fixturePath {
                do {
                    fixtures = try FixtureDirectory.locate(environment: [FixtureDirectory.environmentVariable: path])
                } catch {
                    fail("--fixture \(path): no leaderboard/players.json in that folder (give the Fixtures folder)")
                }
            } else {
                fixtures = try FixtureDirectory.locate()
            }
            players = try fixtures.loadPlayers()
            // No feed (`--no-feed`, `--feed-interval 0`): none is read, on screen or in plain frames.
            feed = options.feedInterval == nil ? [] : try fixtures.loadFeed()
        } catch {
            fail("\(error)")
        }
        let server = LiveLeaderboard(players: players)
        let loader = CursorLoader<Player, LiveLeaderboard.Key>(limit: options.pageSize) { cursor, limit in
            let page = server.page(after: cursor, limit: limit)
            return .init(items: page.players, nextCursor: page.next)
        }
        launch(loader: loader, server: server, feed: feed, options: options, interactive: interactive)
    }

    private static func launch<Loader: PageLoader>(
        loader: Loader, server: LiveLeaderboard?, feed: [FeedEvent], window: LeaderboardDemo<Loader>.Window? = nil,
        options: DemoOptions, interactive: Bool
    ) where Loader.Item == Player {
        if interactive {
            runInteractive(loader: loader, server: server, feed: feed, window: window, options: options)
        } else {
            runPlainFrames(loader: loader, server: server, feed: feed, window: window, options: options)
        }
    }

    /// The column titles and the row formatter: rows numbered by offset, or by their
    /// true rank in a generated leaderboard.
    private static func columns(for source: GeneratedLeaderboard?) -> (StyledText, TerminalListRenderer<Player>.RowFormatter) {
        guard let source else { return (PlayerRow.header, PlayerRow.format) }
        let width = String(source.count).count
        return (PlayerRow.header(rankWidth: width), { player, _ in PlayerRow.format(player, rank: source.rank(of: player) + 1, rankWidth: width) })
    }

    /// The full-screen leaderboard, until `q`, Ctrl-C or a termination signal.
    ///
    /// The renderer draws through the session's output, so nothing is drawn while the
    /// demo is stopped or in the background; the session takes the terminal only in
    /// the foreground and asks for a full redraw when it takes it again.
    private static func runInteractive<Loader: PageLoader>(
        loader: Loader, server: LiveLeaderboard?, feed: [FeedEvent], window: LeaderboardDemo<Loader>.Window?, options: DemoOptions
    ) where Loader.Item == Player {
        let session = TerminalSession()
        let size = TerminalSession.size(of: 1) ?? TerminalSize(rows: 24, columns: 80)
        let (header, formatRow) = columns(for: window?.source)
        let renderer = TerminalListRenderer<Player>(
            size: size,
            mode: .ansi(colors: TerminalSession.colorsEnabled()),
            output: session.output,
            header: header,
            formatRow: formatRow
        )
        let demo = LeaderboardDemo(loader: loader, server: server, feed: feed, window: window, renderer: renderer, options: options)
        do {
            // Closing the renderer first means no update lands after the terminal is restored.
            try session.start(
                onKeys: { keys in
                    // Every key read is applied, then one update is drawn for them all.
                    renderer.coalescingUpdates {
                        for key in keys {
                            if key == .control("z") {
                                session.suspend()
                            } else if demo.handle(key) == .quit {
                                renderer.close()
                                session.restore()
                                exit(0)
                            }
                        }
                    }
                },
                onResize: { size in renderer.resize(to: size) },
                onTerminationSignal: { signal in
                    renderer.close()
                    session.restore()
                    exit(128 + signal)
                },
                onContinue: { renderer.redraw() }
            )
        } catch {
            fail("\(error)")
        }
        demo.start(interactive: true)
        if let interval = options.feedInterval {
            Task { try? await demo.playFeed(every: interval) }
        }
    }

    /// Plain text frames on standard output: the first page, then after each further
    /// batch of feed events (and a page load every other frame), then exit.
    private static func runPlainFrames<Loader: PageLoader>(
        loader: Loader, server: LiveLeaderboard?, feed: [FeedEvent], window: LeaderboardDemo<Loader>.Window?, options: DemoOptions
    ) where Loader.Item == Player {
        let terminalSize = TerminalSession.size(of: 1)
        let size = TerminalSize(
            rows: options.rows ?? terminalSize?.rows ?? 24,
            columns: options.columns ?? terminalSize?.columns ?? 80
        )
        let (header, formatRow) = columns(for: window?.source)
        let renderer = TerminalListRenderer<Player>(
            size: size, mode: .plain(.onRequest), output: FileDescriptorOutput(), header: header, formatRow: formatRow
        )
        let demo = LeaderboardDemo(loader: loader, server: server, feed: feed, window: window, renderer: renderer, options: options)
        let frames = options.frames ?? 5
        Task {
            demo.start(interactive: false)
            await demo.pageSettled()
            for frame in 1...frames {
                if frame > 1 {
                    demo.playFeedEvents(25)
                    if frame % 2 == 1 {
                        demo.paginator.loadNextPage()
                        await demo.pageSettled()
                    }
                }
                await demo.board.flush()
                demo.show(demo.paginator.status)
                renderer.writeFrame()
            }
            exit(0)
        }
    }

    static func fail(_ message: String) -> Never {
        FileDescriptorOutput(fileDescriptor: 2).write(Array("list-demo: \(message)\n".utf8))
        exit(1)
    }
}
