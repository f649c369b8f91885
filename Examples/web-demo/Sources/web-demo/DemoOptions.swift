/// The command line of `web-demo`.
struct DemoOptions: Equatable {
    /// The TCP port on 127.0.0.1; 0 picks a free one.
    var port = 8080
    /// Time between live feed events; `nil` turns the feed off.
    var feedInterval: Duration? = .milliseconds(250)
    /// Simulated time to load a page.
    var pageLatency: Duration = .milliseconds(300)
    /// How often an idle event stream gets a comment line.
    var heartbeat: Duration = .seconds(15)
    /// How long an event stream waits after writing frames, so that frames that arrive
    /// meanwhile go out in one write.
    var coalescing: Duration = .milliseconds(50)
    /// How long a connection may take to deliver a whole request head: from opening, or
    /// from the first byte of a later request on a kept-alive connection.
    var headerTimeout: Duration = .seconds(10)
    /// How long a kept-alive connection may wait, after a response, before the first
    /// byte of its next request.
    var idleTimeout: Duration = .seconds(60)
    /// The most connections the kernel queues before the server accepts them.
    var backlog = 1_024
    /// The caps on windows and how long a window outlives its stream.
    var windowLimits = WindowTable.Limits()
    /// The PostgreSQL database that holds the players; `nil` keeps them in memory.
    var postgres: String?
    /// With ``postgres``: how many players an empty table is filled with.
    var seedPlayers = 3_000

    static let usage = """
        usage: web-demo [--port N] [--feed-interval MS] [--page-latency MS] [--heartbeat MS]
                        [--coalesce MS] [--header-timeout MS] [--idle-timeout MS] [--backlog N]
                        [--max-windows N] [--max-windows-per-client N] [--resume-grace MS]
                        [--postgres URL] [--seed-players N]

          --port N              port on 127.0.0.1 (default 8080; 0 picks a free port)
          --feed-interval MS    milliseconds between live score events (default 250; 0 turns the feed off)
          --page-latency MS     simulated page load time in milliseconds (default 300)
          --heartbeat MS        how often an idle event stream gets a comment line, so that a
                                browser that left is noticed (default 15000)
          --coalesce MS         how long an event stream waits after writing, so that the messages
                                that come meanwhile go out in one write (default 50; 0 writes each
                                message at once)
          --header-timeout MS   a connection is closed when a request head has not fully arrived
                                this long after the connection opened, or after the first byte of
                                a later request (default 10000)
          --idle-timeout MS     a kept-alive connection is closed when no new request starts this
                                long after its last response ended (default 60000); a response in
                                progress, such as an event stream, is never cut
          --backlog N           connections the kernel queues before they are accepted (default 1024;
                                the kernel caps it at net.core.somaxconn)
          --max-windows N       windows held at once, streaming or within their resume grace
                                (default 10000); past it /events answers 503 with Retry-After
          --max-windows-per-client N
                                windows held at once for one peer address (default 64); past
                                it /events answers 429 with Retry-After
          --resume-grace MS     how long a window is kept after its stream ends, for
                                /events?resume=TOKEN (default 30000; 0 releases it at once)
          --postgres URL        keep the players in PostgreSQL (postgres://user@host:port/database):
                                pages are SQL, the feed writes UPDATEs, and every change reaches
                                every instance's windows by LISTEN/NOTIFY (default: in memory)
          --seed-players N      with --postgres: fill an empty players table with N players, the
                                fixtures' first, then generated ones (default 3000); a table
                                that has rows is left as it is
        """

    /// A command line that cannot be used, and why.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses the arguments (without the program name).
    ///
    /// - Returns: the options, or `nil` when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> DemoOptions? {
        var options = DemoOptions()
        var remaining = arguments[...]
        func number(for flag: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
            guard let text = remaining.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            guard let value = Int(text), range.contains(value) else {
                throw UsageError(description: "\(flag) needs a number in \(range.lowerBound)…\(range.upperBound), got \"\(text)\"")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--port":
                options.port = try number(for: argument, in: 0 ... 65_535)
            case "--feed-interval":
                let milliseconds = try number(for: argument, in: 0 ... 3_600_000)
                options.feedInterval = milliseconds == 0 ? nil : .milliseconds(milliseconds)
            case "--page-latency":
                options.pageLatency = .milliseconds(try number(for: argument, in: 0 ... 60_000))
            case "--heartbeat":
                options.heartbeat = .milliseconds(try number(for: argument, in: 10 ... 3_600_000))
            case "--coalesce":
                options.coalescing = .milliseconds(try number(for: argument, in: 0 ... 10_000))
            case "--header-timeout":
                options.headerTimeout = .milliseconds(try number(for: argument, in: 10 ... 3_600_000))
            case "--idle-timeout":
                options.idleTimeout = .milliseconds(try number(for: argument, in: 10 ... 3_600_000))
            case "--backlog":
                options.backlog = try number(for: argument, in: 1 ... 65_535)
            case "--max-windows":
                options.windowLimits.maxWindows = try number(for: argument, in: 1 ... 1_000_000)
            case "--max-windows-per-client":
                options.windowLimits.maxWindowsPerClient = try number(for: argument, in: 1 ... 1_000_000)
            case "--resume-grace":
                options.windowLimits.resumeGrace = .milliseconds(try number(for: argument, in: 0 ... 3_600_000))
            case "--postgres":
                guard let url = remaining.popFirst() else { throw UsageError(description: "--postgres needs a URL") }
                options.postgres = url
            case "--seed-players":
                options.seedPlayers = try number(for: argument, in: 0 ... 10_000_000)
            case "-h", "--help":
                return nil
            default:
                throw UsageError(description: "unknown argument \"\(argument)\"")
            }
        }
        return options
    }
}
