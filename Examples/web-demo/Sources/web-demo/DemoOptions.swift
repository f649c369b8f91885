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

    static let usage = """
        usage: web-demo [--port N] [--feed-interval MS] [--page-latency MS] [--heartbeat MS]

          --port N            port on 127.0.0.1 (default 8080; 0 picks a free port)
          --feed-interval MS  milliseconds between live score events (default 250; 0 turns the feed off)
          --page-latency MS   simulated page load time in milliseconds (default 300)
          --heartbeat MS      how often an idle event stream gets a comment line, so that a
                              browser that left is noticed (default 15000)
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
            case "-h", "--help":
                return nil
            default:
                throw UsageError(description: "unknown argument \"\(argument)\"")
            }
        }
        return options
    }
}
