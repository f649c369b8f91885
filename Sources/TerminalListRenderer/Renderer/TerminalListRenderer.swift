@_exported import ListEngine

/// Shows a `ListDataSource` in a terminal and keeps it up to date, batch by batch.
///
/// The screen is a header row (optional), a viewport of list rows, and a status line
/// with the version, the selected row and row count, a loading indicator and the last
/// error. Rows are drawn by a formatter you supply; the renderer escapes control
/// characters in them, measures wide characters and emoji, and cuts each row to the
/// width with "…".
///
/// In ``TerminalRenderMode/ansi(colors:)`` mode each change is written as the
/// difference from what the screen shows: only rows whose content changed are
/// rewritten, each from its first to its last changed cell (cursor addressing, then the
/// cells, then erase-to-end-of-line when the row got shorter). When the list rows moved
/// up or down together (scrolling, or rows inserted or removed on screen), the terminal
/// scrolls the list area first (a scroll region), so scrolling by one row writes one
/// row, not a screen. The whole screen is drawn only for the first frame, after a
/// resize, and on ``redraw()``. So the bytes a
/// batch costs depend on what changed *on screen*, not on the length of the list: a
/// one-row update writes the same bytes in a list of 100 rows as in one of 1,000,000,
/// and rendering reads only the visible rows (O(log *n*) each).
///
/// A `SectionedListDataSource` is shown through ``sectioned(title:)``: a header line
/// with the title and row count of each section ("Diamond · 37") comes before its rows,
/// and the header of the section of the first visible row stays pinned on the first
/// line of the list while its rows scroll by (see ``ListViewport/lines``);
/// ``showsSectionHeaders`` hides them. A flat list draws as it always has.
///
/// Rows stay put when rows are inserted or removed above them, and the selection
/// follows its item (see ``ListViewport``). Navigation methods (``moveSelection(by:)``,
/// ``pageDown()``, …) are safe to call from any thread; every call that changes the
/// screen writes one update, except inside ``coalescingUpdates(_:)``, which writes one
/// update for everything its body changed (a burst of keys, say).
///
/// ```swift
/// let renderer = TerminalListRenderer<Player>(
///     size: TerminalSession.size() ?? TerminalSize(rows: 24, columns: 80),
///     mode: .automatic(),
///     output: FileDescriptorOutput()
/// ) { player, offset in
///     StyledText("\(offset + 1). \(player.name)") + StyledText("  \(player.score)", style: TextStyle(foreground: .green))
/// }
/// let token = source.attach(renderer)
/// ```
///
/// Drawing happens on the thread that calls: the data source's delivery queue for
/// batches, the caller's for navigation. A lock serializes them, so updates never
/// interleave.
public final class TerminalListRenderer<Item: Hashable & DataSourceComparable>: ListRenderer {
    /// Formats an item shown at a row offset.
    public typealias RowFormatter = @Sendable (_ item: Item, _ offset: Int) -> StyledText
    /// Called with the visible rows and the row count whenever either changes.
    public typealias VisibleRowsHandler = @Sendable (_ visible: Range<Int>, _ count: Int) -> Void

    let _output: any TerminalOutput
    let _formatRow: RowFormatter
    let _state: LockedState<_State>
    let _visibleRowsHandler = LockedState<VisibleRowsHandler?>(nil)

    struct _State: Sendable {
        var viewport: ListViewport<Item>
        var size: TerminalSize
        var mode: TerminalRenderMode
        var status = TerminalStatus()
        var header: StyledText?
        /// The title of the section at an offset in the sections of the viewport's
        /// snapshot; set by each sectioned batch, `nil` after a flat one.
        var sectionTitle: (@Sendable (Int) -> String)?
        /// What the screen shows (ANSI mode), or `nil` when it must be drawn in full.
        var screen: [[ScreenCell]]?
        var framesWritten = 0
        /// Set by ``TerminalListRenderer/close()``: nothing more is written.
        var isClosed = false
        /// How many ``TerminalListRenderer/coalescingUpdates(_:)`` calls are running:
        /// while more than 0, changes are applied and nothing is written.
        var coalescingDepth = 0
        /// A plain frame was asked for while updates were coalesced.
        var isPlainFrameDue = false
        var lastReportedRows: (visible: Range<Int>, count: Int)?
        /// Places rows in a larger source, for the status line; see
        /// ``TerminalListRenderer/showPositionInSource(_:)``.
        var positionInSource: (@Sendable (Item) -> TerminalSourcePosition?)?
    }

    /// Creates a renderer.
    ///
    /// - Parameters:
    ///   - size: the terminal's size; in plain mode, the rows and columns of a frame.
    ///   - mode: ANSI (full screen) or plain lines; see ``TerminalRenderMode/automatic(for:)``.
    ///   - output: where bytes go.
    ///   - header: an optional first row, such as column titles.
    ///   - formatRow: the text of a row, given the item and its offset in the list.
    /// - Complexity: O(1); nothing is written until the first batch.
    public init(
        size: TerminalSize,
        mode: TerminalRenderMode,
        output: any TerminalOutput,
        header: StyledText? = nil,
        formatRow: @escaping RowFormatter
    ) {
        _output = output
        _formatRow = formatRow
        let layout = _Layout(size: size, hasHeader: header != nil)
        _state = LockedState(_State(viewport: ListViewport(height: layout.listRows), size: size, mode: mode, header: header))
    }

    /// Creates a renderer whose rows are plain text.
    ///
    /// - Parameters:
    ///   - size: the terminal's size.
    ///   - mode: ANSI (full screen) or plain lines.
    ///   - output: where bytes go.
    ///   - header: an optional first row.
    ///   - text: the text of a row.
    /// - Complexity: O(1); nothing is written until the first batch.
    public convenience init(
        size: TerminalSize,
        mode: TerminalRenderMode,
        output: any TerminalOutput,
        header: StyledText? = nil,
        text: @escaping @Sendable (Item) -> String
    ) {
        self.init(size: size, mode: mode, output: output, header: header) { item, _ in StyledText(text(item)) }
    }

    /// Applies a batch: anchors the viewport, moves the selection, and writes the update.
    ///
    /// - Parameter batch: the next batch of the data source, in order.
    /// - Complexity: O(*k* log *k*) for *k* changed rows, plus O(*h* log *n*) to format
    ///   the *h* visible rows of *n* and O(*h* · *c* + *h*²) to compare them with the *c*
    ///   columns on screen. Independent of the length of the list beyond the logarithm.
    public func render(_ batch: ChangeBatch<Item>) {
        _update(plainFrame: true) {
            $0.viewport.apply(batch)
            $0.sectionTitle = nil
        }
    }

    /// Sets how many rows and columns the screen has, and draws it anew.
    ///
    /// Nothing is written when `size` is the current size.
    ///
    /// - Parameter size: the terminal's new size.
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*r* · *c*) to draw *r* rows of *c* columns.
    public func resize(to size: TerminalSize) {
        _update {
            guard $0.size != size else { return }
            $0.size = size
            $0.screen = nil
            $0._syncViewportHeight()
        }
    }

    /// Shows where the loaded rows stand in a larger source, for a list that holds only
    /// part of it (a window that pages both ways and drops rows far from view).
    ///
    /// The status line then counts in the source: the selected row's place of the
    /// source's rows, and which rows are loaded — " v12 · 1,253/1,000,000 · rows
    /// 1,201–2,200 of 1,000,000 loaded" instead of " v12 · 53/1,000". `position` is
    /// called for the first, the last and the selected row each time the status line is
    /// drawn; when it answers `nil` for one of them, the line counts the list's rows as
    /// usual. Pass `nil` to go back to that.
    ///
    /// ```swift
    /// renderer.showPositionInSource { player in
    ///     TerminalSourcePosition(offset: leaderboard.rank(of: player), total: leaderboard.count)
    /// }
    /// ```
    /// - Parameter position: the offset of a row in the source, and the source's row
    ///   count. Called under the renderer's lock, so it must not call the renderer.
    /// - Complexity: O(1), plus what ``updateStatus(_:)`` costs to write the update.
    public func showPositionInSource(_ position: (@Sendable (Item) -> TerminalSourcePosition?)?) {
        _update { $0.positionInSource = position }
    }

    /// The current status.
    ///
    /// - Complexity: O(1).
    public var status: TerminalStatus { _state.withLock { $0.status } }

    /// Changes the status line (and the trailing row) and writes the update.
    ///
    /// ```swift
    /// renderer.updateStatus { $0.isLoading = false; $0.lastError = nil }
    /// ```
    ///
    /// - Parameter change: edits the status in place; called once, under the renderer's
    ///   lock, so it must not call the renderer.
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*h* · *c* + *h*²) to compare them with the *c* columns on screen.
    public func updateStatus(_ change: (inout TerminalStatus) -> Void) {
        _update {
            change(&$0.status)
            $0.viewport.setTrailingRow($0.status.trailingRow != nil)
            $0.viewport.setRowsAbove($0.status.hasRowsAbove)
        }
    }

    /// The header row, or `nil` for none. Setting it writes the update.
    ///
    /// - Complexity: O(1) to read; setting costs what ``updateStatus(_:)`` does.
    public var header: StyledText? {
        get { _state.withLock { $0.header } }
        set {
            _update {
                $0.header = newValue
                $0._syncViewportHeight()
            }
        }
    }

    /// The viewport: the first visible row, the selection, the snapshot shown.
    ///
    /// - Complexity: O(1).
    public var viewport: ListViewport<Item> { _state.withLock { $0.viewport } }

    /// How the renderer writes.
    ///
    /// - Complexity: O(1).
    public var mode: TerminalRenderMode { _state.withLock { $0.mode } }

    /// The size the renderer draws for.
    ///
    /// - Complexity: O(1).
    public var size: TerminalSize { _state.withLock { $0.size } }

    /// Registers a function called (outside the renderer's lock, on the thread that made
    /// the change) with the visible rows and row count whenever they change, for example
    /// to prefetch the next page when the end comes into view. Replaces any previous one.
    ///
    /// A new handler is called once right away with the current rows.
    ///
    /// ```swift
    /// renderer.observeVisibleRows { visible, count in
    ///     if visible.upperBound >= count - 5 { paginator.loadNextPage() }
    /// }
    /// ```
    ///
    /// - Parameter handler: the function to call, or `nil` to stop reporting.
    /// - Complexity: O(1), plus the first call of `handler`.
    public func observeVisibleRows(_ handler: VisibleRowsHandler?) {
        _visibleRowsHandler.withLock { $0 = handler }
        guard let handler else { return }
        let current = _state.withLock { ($0.viewport.visibleRows, $0.viewport.count) }
        handler(current.0, current.1)
    }

    /// Clears the screen and draws everything (ANSI mode); writes a frame (plain mode).
    ///
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*r* · *c*) to draw *r* rows of *c* columns.
    public func redraw() {
        _update(forcePlainFrame: true) { $0.screen = nil }
    }

    /// Writes the current frame in plain mode (whatever the plain frame policy); the same
    /// as ``redraw()`` in ANSI mode.
    ///
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*r* · *c*) to write *r* rows of *c* columns.
    public func writeFrame() { redraw() }

    /// Runs `body` and then writes one update for everything that changed meanwhile:
    /// the navigation calls, status changes and batches made while it runs update the
    /// state, and nothing is written until it returns.
    ///
    /// Apply a burst of keys inside it, and the screen is drawn once for the burst,
    /// not once per key:
    ///
    /// ```swift
    /// renderer.coalescingUpdates {
    ///     for key in keys where key == .down { renderer.moveSelection(by: 1) }
    /// }
    /// ```
    ///
    /// Calls may nest; the outermost one writes. Updates from other threads (batches
    /// delivered while `body` runs) are held too and written with the rest. In plain
    /// mode, at most one frame is written, if any of the held changes would have
    /// written one. The visible-rows handler is called once at the end, if the rows
    /// changed.
    ///
    /// - Parameter body: the changes; it may call any of the renderer's methods.
    /// - Returns: what `body` returns.
    /// - Complexity: `body`'s changes, plus one update: O(*h* log *n*) to format the *h*
    ///   visible rows of *n* and O(*h* · *c* + *h*²) to compare them with the *c* columns
    ///   on screen, or O(*r* · *c*) for a full redraw.
    public func coalescingUpdates<Result>(_ body: () throws -> Result) rethrows -> Result {
        _state.withLock { $0.coalescingDepth += 1 }
        defer { _update { $0.coalescingDepth -= 1 } }
        return try body()
    }

    /// Stops writing for good: later batches and calls still update the state, but write
    /// nothing. Returns after any update in progress has been written, so a program can
    /// close the renderer and then restore the terminal without a late update landing
    /// on the restored screen.
    ///
    /// - Complexity: O(1), after waiting for the update in progress, if any.
    public func close() {
        _state.withLock { $0.isClosed = true }
    }

    /// How many plain frames or ANSI updates have been written.
    ///
    /// - Complexity: O(1).
    public var framesWritten: Int { _state.withLock { $0.framesWritten } }

    /// The text of the current frame, one string per screen row, trailing spaces
    /// removed: what a user sees, without styles.
    ///
    /// - Returns: `size.rows` strings, top to bottom: the header (if shown), the list rows,
    ///   the status line.
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*r* · *c*) for *r* rows of *c* columns.
    public func frameText() -> [String] {
        _state.withLock { state in
            state._buildFrame(formatRow: _formatRow).map { Self._text(of: $0) }
        }
    }
}
