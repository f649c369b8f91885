import Foundation
import LeaderboardFixtures

/// The command line of `list-demo`, parsed by hand.
struct DemoOptions: Equatable {
    /// What to run.
    enum Command: Equatable {
        /// The interactive leaderboard (or plain frames when there is no terminal).
        case leaderboard
        /// The non-interactive tour of batches.
        case walkthrough
        /// Print the usage and exit.
        case help
    }

    /// How the leaderboard is grouped into sections.
    enum Grouping: String, Equatable, CaseIterable {
        /// By score band: Diamond, Platinum, Gold, Silver, Bronze (`LeaderboardTier`).
        case tier
    }

    /// How the HTTP endpoint addresses pages.
    enum URLMode: String, Equatable, CaseIterable {
        case page, offset, cursor
    }

    var command = Command.leaderboard
    /// The `Fixtures` folder; located automatically when `nil`.
    var fixturePath: String?
    var pageSize = 50
    /// Simulated latency of every page load.
    var latency = Duration.milliseconds(350)
    /// Time between live feed events; `nil` turns the feed off.
    var feedInterval: Duration? = .milliseconds(150)
    var url: URL?
    /// Page addressing for `url`; from the URL's last path component when `nil`.
    var urlMode: URLMode?
    /// Plain text frames instead of the full-screen terminal.
    var noTTY = false
    /// How many plain frames to print; implies `noTTY`.
    var frames: Int?
    /// Size of plain frames; the terminal's (or 24×80) when `nil`.
    var rows: Int?
    var columns: Int?
    /// Pressing `!` crashes on purpose, to check the terminal is restored.
    var crashKey = false
    /// Sections to group the leaderboard into; `nil` for a flat list.
    var grouping: Grouping?
    /// Players of a generated leaderboard shown through a window; `nil` for the fixtures.
    var players: Int?
    /// The most rows a generated leaderboard's window holds.
    var maxLoadedRows: Int { max(1_000, 4 * pageSize) }

    /// The page addressing to use with `url`.
    var resolvedURLMode: URLMode {
        if let urlMode { return urlMode }
        switch url?.lastPathComponent {
        case "offset": return .offset
        case "cursor": return .cursor
        default: return .page
        }
    }

    /// Parses the arguments after the program name.
    ///
    /// - Throws: ``DemoOptionsError`` naming the argument that is wrong.
    static func parse(_ arguments: [String]) throws(DemoOptionsError) -> DemoOptions {
        var options = DemoOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            // Whether the option took its `=value`; one that takes no value refuses it below.
            var isInlineValueTaken = false
            func value() throws(DemoOptionsError) -> String {
                if let inlineValue {
                    isInlineValueTaken = true
                    return inlineValue
                }
                guard let next = remaining.popFirst() else { throw .missingValue(option: name) }
                return next
            }
            func integer(in range: ClosedRange<Int>) throws(DemoOptionsError) -> Int {
                let text = try value()
                guard let number = Int(text), range.contains(number) else {
                    throw .invalidValue(option: name, value: text, expected: "a whole number in \(range.lowerBound)…\(range.upperBound)")
                }
                return number
            }
            switch name {
            case "-h", "--help": options.command = .help
            case "--walkthrough": options.command = .walkthrough
            case "--fixture": options.fixturePath = try value()
            case "--page-size": options.pageSize = try integer(in: 1...10_000)
            case "--latency": options.latency = .milliseconds(try integer(in: 0...60_000))
            case "--feed-interval":
                let milliseconds = try integer(in: 0...60_000)
                options.feedInterval = milliseconds == 0 ? nil : .milliseconds(milliseconds)
            case "--no-feed": options.feedInterval = nil
            case "--url":
                let text = try value()
                guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), url.host != nil else {
                    throw .invalidValue(option: name, value: text, expected: "an http:// or https:// URL")
                }
                options.url = url
            case "--mode":
                let text = try value()
                guard let mode = URLMode(rawValue: text) else {
                    throw .invalidValue(option: name, value: text, expected: "page, offset or cursor")
                }
                options.urlMode = mode
            case "--group":
                let text = try value()
                guard let grouping = Grouping(rawValue: text) else {
                    throw .invalidValue(option: name, value: text, expected: "tier")
                }
                options.grouping = grouping
            case "--players": options.players = try integer(in: 1...GeneratedLeaderboard.maximumCount)
            case "--no-tty": options.noTTY = true
            case "--frames":
                options.frames = try integer(in: 1...100_000)
                options.noTTY = true
            case "--rows": options.rows = try integer(in: 2...1_000)
            case "--columns": options.columns = try integer(in: 10...1_000)
            case "--crash-key": options.crashKey = true
            default:
                throw .unknownOption(argument)
            }
            if inlineValue != nil && !isInlineValueTaken { throw .unexpectedValue(option: name) }
        }
        if options.players != nil, options.url != nil { throw .conflicting("--players", "--url") }
        return options
    }

    static let usage = """
        usage: list-demo [options]

        A live leaderboard in the terminal: pages load as you scroll, scores change
        from a feed, rows move, players join and leave.

        Keys:
          ↑ ↓  j k        move the selection          g G  Home End   first / last row
          PgUp PgDn       scroll a screen             s               sort by score ↔ name
          r               refresh (reload page 1)     f               fail the next load
          Enter           retry a failed load         q  Ctrl-C       quit
          Ctrl-L          redraw                      Ctrl-Z          suspend (fg resumes)
          t               show / hide the tier headers (with --group tier)

        Options:
          --fixture PATH      the Fixtures folder (default: found from the current
                              folder, or $LIST_FIXTURES)
          --page-size N       rows per page (default 50)
          --latency MS        simulated latency of every page load (default 350)
          --feed-interval MS  time between live feed events (default 150; 0 = off)
          --no-feed           no live feed
          --url URL           load pages from an HTTP endpoint instead, such as
                              http://127.0.0.1:8000/cursor from Fixtures/server.py
                              (no live feed: the server's data is the truth)
          --mode page|offset|cursor
                              page addressing for --url (default: from the URL's
                              last path component, else page)
          --group tier        group the players into tiers by score: Diamond from
                              90,000, Platinum from 75,000, Gold from 50,000,
                              Silver from 25,000, Bronze below; each tier has a
                              header with its row count, the current one pinned at
                              the top; players move between tiers as scores change,
                              and s sorts by name within each tier
          --players N         a generated leaderboard of N players (up to
                              10,000,000), made on the fly and loaded in keyset
                              pages through a window of at most 1,000 rows (or 4
                              pages): rows far from view are dropped and loaded
                              again on the way back; ranks are the players' true
                              ranks; g and G jump to the first and last players;
                              the live feed changes scores through the window
          --no-tty            print plain text frames instead of the full screen
          --frames N          print N plain frames and exit (implies --no-tty)
          --rows N, --columns N
                              size of plain frames (default: the terminal's, or 24×80)
          --walkthrough       print a non-interactive tour of change batches
          --crash-key         let ! crash the demo on purpose, to check that the
                              terminal is restored after a crash
          -h, --help          this text

        Without a terminal on standard input and output, --no-tty is implied and
        5 frames are printed.
        """
}

/// A command line that cannot be run, and why.
enum DemoOptionsError: Error, Equatable, CustomStringConvertible {
    case unknownOption(String)
    case missingValue(option: String)
    case invalidValue(option: String, value: String, expected: String)
    /// A value given with `=` to an option that takes none (`--no-tty=false`).
    case unexpectedValue(option: String)
    /// Two options that cannot be used together.
    case conflicting(String, String)

    var description: String {
        switch self {
        case .unknownOption(let option): "unknown option \(option)"
        case .missingValue(let option): "\(option) needs a value"
        case .unexpectedValue(let option): "\(option) takes no value"
        case .conflicting(let first, let second): "\(first) and \(second) cannot be used together"
        case .invalidValue(let option, let value, let expected): "\(option) \(value): expected \(expected)"
        }
    }
}
