/// What the status line shows besides the row count and version, set from outside.
///
/// A paginating screen maps its paginator's state here: ``isLoading`` while a page is
/// on its way, ``trailingRow`` "Loading…" once a load is slow, ``lastError`` after a
/// failure.
/// ```swift
/// renderer.updateStatus { $0.isLoading = true }
/// renderer.updateStatus { $0.lastError = "page 3: HTTP 500"; $0.trailingRow = "Load failed — press r" }
/// ```
public struct TerminalStatus: Hashable, Sendable {
    /// Shows a loading indicator in the status line.
    public var isLoading: Bool
    /// The last error, shown in the status line until cleared.
    public var lastError: String?
    /// Free text at the end of the status line (the sort order, key hints).
    public var note: String?
    /// An extra row after the last item, such as "Loading…"; `nil` for none.
    public var trailingRow: StyledText?
    /// Whether rows the list does not hold come before its first row: a window whose
    /// start is not loaded (a paginator whose `status.prepend` is not exhausted). While
    /// set, a previous page arriving above keeps the top visible row on its line, even
    /// at the very top (see ``ListViewport/hasRowsAbove``).
    public var hasRowsAbove: Bool

    /// Creates a status; everything is off by default.
    ///
    /// - Parameters:
    ///   - isLoading: shows a loading indicator in the status line.
    ///   - lastError: the last error, shown in the status line.
    ///   - note: free text at the end of the status line.
    ///   - trailingRow: an extra row after the last item; `nil` for none.
    ///   - hasRowsAbove: whether rows the list does not hold come before its first row.
    /// - Complexity: O(1).
    public init(
        isLoading: Bool = false, lastError: String? = nil, note: String? = nil, trailingRow: StyledText? = nil,
        hasRowsAbove: Bool = false
    ) {
        self.isLoading = isLoading
        self.lastError = lastError
        self.note = note
        self.trailingRow = trailingRow
        self.hasRowsAbove = hasRowsAbove
    }
}

/// The size of a terminal in character cells.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    /// Number of rows (lines).
    public var rows: Int
    /// Number of columns.
    public var columns: Int

    /// Creates a size, storing negative values as 0 (the properties, once set, hold
    /// what they are given).
    ///
    /// - Parameters:
    ///   - rows: the number of rows.
    ///   - columns: the number of columns.
    /// - Complexity: O(1).
    public init(rows: Int, columns: Int) {
        self.rows = max(0, rows)
        self.columns = max(0, columns)
    }

    /// Columns by rows, as terminals say it: `80×24`.
    ///
    /// - Complexity: O(1).
    public var description: String { "\(columns)×\(rows)" }
}

/// How a ``TerminalListRenderer`` writes.
public enum TerminalRenderMode: Hashable, Sendable {
    /// A full-screen terminal: cursor addressing, and each update rewrites only the
    /// cells that changed. `colors: false` drops colours (the `NO_COLOR` convention) but
    /// keeps attributes such as the reversed selection bar.
    case ansi(colors: Bool)
    /// Plain lines without escape codes, for pipes, files and dumb terminals: a frame is
    /// the visible rows and the status line, followed by an empty line.
    case plain(PlainFrames)

    /// When plain mode writes a frame.
    public enum PlainFrames: Hashable, Sendable {
        /// After every batch.
        case everyBatch
        /// Only when ``TerminalListRenderer/writeFrame()`` is called.
        case onRequest
    }

    /// `.ansi` when `fileDescriptor` is a terminal (with colours unless `NO_COLOR` is set
    /// and not empty), otherwise `.plain(.everyBatch)`.
    ///
    /// - Parameter fileDescriptor: the descriptor the renderer writes to; standard output
    ///   by default.
    /// - Returns: the mode for that descriptor.
    /// - Complexity: O(*e*) for *e* environment variables, plus one system call.
    public static func automatic(for fileDescriptor: Int32 = 1) -> TerminalRenderMode {
        TerminalSession.isTerminal(fileDescriptor) ? .ansi(colors: TerminalSession.colorsEnabled()) : .plain(.everyBatch)
    }

    var _isANSI: Bool {
        if case .ansi = self { return true }
        return false
    }

    var _colors: Bool {
        if case .ansi(let colors) = self { return colors }
        return false
    }
}

/// Where a row stands in a larger source, of which the list holds a part (a window).
///
/// See ``TerminalListRenderer/showPositionInSource(_:)``.
public struct TerminalSourcePosition: Hashable, Sendable {
    /// The row's offset in the source, from 0.
    public var offset: Int
    /// How many rows the source has; `nil` when unknown.
    public var total: Int?

    /// Creates a position.
    ///
    /// - Parameters:
    ///   - offset: the row's offset in the source, from 0.
    ///   - total: how many rows the source has; `nil` when unknown.
    /// - Complexity: O(1).
    public init(offset: Int, total: Int?) {
        self.offset = offset
        self.total = total
    }
}
