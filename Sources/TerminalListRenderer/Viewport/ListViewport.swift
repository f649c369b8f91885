/// The part of a list a screen shows, and the selected row: a value that follows batches.
///
/// A viewport is a window of ``height`` lines starting at row ``top`` of the list, plus an
/// optional selected row. It changes on two kinds of events, both `mutating` methods with
/// no I/O, so tests can drive it one event at a time:
///
/// - **Batches** (``apply(_:)-(ChangeBatch<Item>)``). The rows on screen stay where they
///   are: the first visible row that the batch neither removed nor moved keeps its
///   screen position, so rows inserted or removed *above* the viewport do not shift what
///   the user is reading (*scroll anchoring*). A viewport at the very top stays at the top, so new first
///   rows appear; it scrolls only as far as it takes to keep a selected row that was
///   on screen, and that the batch did not move, on screen. A viewport scrolled to the
///   end anchors on its *last* such row instead, so the end stays in view — a "Loading…" row stays visible while rows
///   change above it, and the next page arrives below the row it follows. The
///   selection follows its item by id when the item moves; when the item is removed,
///   the selection goes to the row that took its place (the next surviving row, or the
///   last row).
/// - **Navigation** (``moveSelection(by:)``, ``pageDown()``, ``selectLast()``, …), which
///   scrolls as little as needed to keep the selection visible.
///
/// ```swift
/// var viewport = ListViewport<Player>(height: 20)
/// viewport.apply(batch)          // for every batch, in order
/// viewport.moveSelection(by: 1)  // ↓
/// if let rows = viewport.snapshot {
///     for offset in viewport.visibleRows where offset < rows.count { print(rows[offset]) }
/// }
/// ```
///
/// A viewport that follows a sectioned list (``apply(_:)-(SectionedChangeBatch<Section,Item>)``)
/// shows a header line before the first row of each section and keeps the header of the
/// section of its first visible row *pinned* on its first line (see ``lines``), unless
/// ``showsSectionHeaders`` is off or it is a single line high. ``top`` and ``selection``
/// remain offsets of rows, so anchoring and navigation work as for a flat list; only the
/// number of rows that fit in ``height`` lines depends on the section boundaries in view.
///
/// All work is proportional to the batch (its offsets) and the height, never to the
/// length of the list: positions are computed from the batch's sorted offsets, and the
/// only reads of the list are the snapshot's O(log *n*) subscripts for visible rows and,
/// for a sectioned list, O(log *s*) reads of section bounds per section in view.
public struct ListViewport<Item: Hashable & DataSourceComparable>: Sendable {
    /// The rows, as of the last batch applied; `nil` before the first one.
    public internal(set) var snapshot: ListSnapshot<Item>?
    /// The offset of the first visible row.
    public internal(set) var top: Int = 0
    /// The offset of the selected row, or `nil` when the list is empty.
    public internal(set) var selection: Int?
    /// How many lines are visible: rows, section headers and the trailing row.
    public internal(set) var height: Int
    /// Whether an extra row follows the last item (a "Loading…" or error row). It can be
    /// scrolled to, but not selected.
    public internal(set) var hasTrailingRow = false
    /// Whether rows the list does not hold come before its first row (a window whose
    /// start is not loaded). While set, rows that arrive above the visible rows keep them
    /// on their lines even when the viewport shows the first row: a previous page
    /// appears above, out of view, instead of pushing the screen down. Off by default:
    /// at the very top, rows inserted above show. Change it with ``setRowsAbove(_:)``.
    public internal(set) var hasRowsAbove = false
    /// Whether section headers are shown when the list has sections; on by default.
    /// Change it with ``setSectionHeaders(_:)``.
    public internal(set) var showsSectionHeaders = true
    /// The sections of ``snapshot`` when the last batch applied was a sectioned one.
    var _sections: (any _SectionBounds)?

    /// Creates a viewport showing `height` lines of a list not yet seen.
    /// - Parameter height: the number of visible lines, at least 0.
    public init(height: Int) {
        precondition(height >= 0, "viewport height \(height) is negative")
        self.height = height
    }

    /// The number of items in the list.
    ///
    /// - Complexity: O(1).
    public var count: Int { snapshot?.count ?? 0 }

    /// The number of rows that can be scrolled through: the items plus the trailing row.
    ///
    /// - Complexity: O(1).
    public var rowCount: Int { count + (hasTrailingRow ? 1 : 0) }

    /// The offsets of the visible rows (may include `count`, the trailing row).
    ///
    /// - Complexity: O(1) for a flat list; for one with section headers, O(*h* log *s*
    ///   (log *n* + log *s*)) to find the bounds of the sections in view, *h* = ``height``.
    public var visibleRows: Range<Int> {
        guard _showsHeaders else { return top..<min(top + height, rowCount) }
        var end = top
        for line in lines {
            switch line {
            case .row(let offset): end = offset + 1
            case .trailingRow: end = count + 1
            case .sectionHeader, .empty: break
            }
        }
        return top..<end
    }

    /// The id of the selected item.
    ///
    /// - Complexity: O(log *n*).
    public var selectedID: Item.ID? {
        guard let selection, let snapshot else { return nil }
        return snapshot[selection].id
    }

    /// Whether the viewport is scrolled away from the top and shows the last row.
    var _isAtBottom: Bool { _showsHeaders ? top > 0 && top >= _maxTop : top > 0 && top + height >= rowCount }

    /// The largest valid ``top``: the last rows fill the viewport.
    var _maxTop: Int {
        guard _showsHeaders else { return max(0, rowCount - height) }
        return _lowestTop(showing: count - 1, withTrailingRow: hasTrailingRow)
    }

    mutating func _clampTop() {
        top = min(max(0, top), _maxTop)
    }

    /// Traps unless the viewport is consistent: `top` in range, a selection exactly when
    /// there are items, and inside the list. Does work only with `LIST_INTERNAL_CHECKS`.
    func _checkInvariants() {
        #if LIST_INTERNAL_CHECKS
        precondition(height >= 0, "viewport height \(height) is negative")
        precondition(top >= 0 && top <= _maxTop, "viewport top \(top) outside 0...\(_maxTop)")
        precondition((selection == nil) == (count == 0), "selection \(String(describing: selection)) with \(count) rows")
        if let selection { precondition(selection < count, "selection \(selection) beyond \(count) rows") }
        if let _sections {
            precondition(_sections.version == snapshot?.version, "sections of version \(_sections.version) with rows of version \(snapshot?.version ?? -1)")
        }
        if _showsHeaders { precondition(top < count, "viewport top \(top) past the last of \(count) rows under a pinned header") }
        #endif
    }
}
