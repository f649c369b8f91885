import Foundation
import Hummingbird
import HummingbirdCore
import LeaderboardFixtures
import ListEnginePostgres
import Logging
import ServiceLifecycle

/// Serves the live leaderboard to browsers: `swift run web-demo`, then open the URL it
/// prints.
@main
enum WebDemo {
    static func main() async {
        let options: DemoOptions
        do {
            guard let parsed = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
                print(DemoOptions.usage)
                return
            }
            options = parsed
        } catch {
            FileHandle.standardError.write(Data("web-demo: \(error)\n\n\(DemoOptions.usage)\n".utf8))
            exit(64)
        }
        do {
            try await run(options)
        } catch {
            FileHandle.standardError.write(Data("web-demo: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ options: DemoOptions) async throws {
        let fixtures = try FixtureDirectory.locate()
        var sizes = Leaderboard.Sizes()
        sizes.pageLatency = options.pageLatency
        var logger = Logger(label: "web-demo")
        logger.logLevel = .warning
        // With PostgreSQL, the table, its triggers and the change feed come first: the
        // shared views subscribe to the feed before their first page.
        var postgres: PostgresRoster?
        if let text = options.postgres {
            let roster = try PostgresRoster(url: try PostgresURL(text), logger: logger)
            try await roster.start(seed: options.seedPlayers, fixtures: try fixtures.loadPlayers())
            postgres = roster
        }
        let leaderboard = try Leaderboard(
            fixtures: fixtures, feedInterval: options.feedInterval, sizes: sizes, limits: options.windowLimits, postgres: postgres
        )
        // Connections that have no request in progress are closed on their header or idle
        // deadline; a response in progress (an event stream) has none.
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [
            ConnectionTimeoutHandler(header: options.headerTimeout, idle: options.idleTimeout),
        ])
        let app = Application(
            router: DemoRoutes.router(for: leaderboard, heartbeat: options.heartbeat, coalescing: options.coalescing),
            server: .http1(configuration: http1),
            configuration: .init(address: .hostname("127.0.0.1", port: options.port), serverName: "web-demo", backlog: options.backlog),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                // Written straight to the file descriptor: no buffering, even into a pipe.
                FileHandle.standardOutput.write(Data("web-demo: the leaderboard is at http://127.0.0.1:\(port)/  (Ctrl-C stops)\n".utf8))
            },
            logger: logger
        )
        // Services stop in reverse order: the leaderboard first, which ends every window's
        // event stream, so the server has no open responses left to wait for.
        var configuration = ServiceGroupConfiguration(
            services: [app, leaderboard],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        // A browser that stopped reading holds its response open, stuck in a write that
        // ending the stream cannot interrupt: after this long, the server is cancelled,
        // which closes its connections.
        configuration.maximumGracefulShutdownDuration = .seconds(2)
        let services = ServiceGroup(configuration: configuration)
        try await services.run()
    }
}
