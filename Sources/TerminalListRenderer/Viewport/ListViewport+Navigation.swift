extension ListViewport {
    /// Moves the selection by `delta` rows (negative: up), scrolling as little as needed.
    ///
    /// The selection stops at the first and last rows.
    ///
    /// - Parameter delta: the number of rows to move.
    /// - Complexity: O(1).
    public mutating func moveSelection(by delta: Int) {
        guard let selection else { return }
        self.selection = min(max(0, selection + delta), count - 1)
        _revealSelection()
    }

    /// Scrolls down one screen, moving the selection with it.
    ///
    /// - Complexity: O(1) for a flat list; O(*h* log *s* (log *n* + log *s*)) with
    ///   section headers, for a height of *h*.
    public mutating func pageDown() {
        let step = _pageStep
        top += step
        _clampTop()
        moveSelection(by: step)
    }

    /// Scrolls up one screen, moving the selection with it.
    ///
    /// - Complexity: O(1) for a flat list; O(*h* log *s* (log *n* + log *s*)) with
    ///   section headers, for a height of *h*.
    public mutating func pageUp() {
        let step = _pageStep
        top -= step
        _clampTop()
        moveSelection(by: -step)
    }

    /// Selects the first row and scrolls to the top.
    ///
    /// - Complexity: O(1).
    public mutating func selectFirst() {
        guard count > 0 else { return }
        selection = 0
        top = 0
        _checkInvariants()
    }

    /// Selects the last row and scrolls to the bottom (showing the trailing row, if any).
    ///
    /// - Complexity: O(1).
    public mutating func selectLast() {
        guard count > 0 else { return }
        selection = count - 1
        _revealSelection()
    }

    /// Selects the row at `offset` (clamped to the list) and scrolls to it.
    ///
    /// - Parameter offset: the row to select.
    /// - Complexity: O(1).
    public mutating func select(offset: Int) {
        guard count > 0 else { return }
        selection = min(max(0, offset), count - 1)
        _revealSelection()
    }

    /// Selects the item with `id` and scrolls to it.
    ///
    /// - Parameter id: the id of the item to select.
    /// - Returns: `false` if the list does not hold the id (the selection is unchanged).
    /// - Complexity: O((1 + *t*) log *n*), *t* = rows tied with the item; see
    ///   `ListSnapshot.index(of:)`.
    @discardableResult
    public mutating func select(id: Item.ID) -> Bool {
        guard let offset = snapshot?.index(of: id) else { return false }
        select(offset: offset)
        return true
    }

    /// Scrolls so that row `offset` is the first visible one (as far as the list allows),
    /// leaving the selection where it is.
    ///
    /// - Parameter offset: the row to show first.
    /// - Complexity: O(1).
    public mutating func scroll(toTop offset: Int) {
        top = offset
        _clampTop()
        _checkInvariants()
    }

    /// Changes the number of visible rows, keeping the top row and the selection in view.
    ///
    /// - Parameter newHeight: the number of visible rows, at least 0.
    /// - Complexity: O(1).
    public mutating func resize(height newHeight: Int) {
        precondition(newHeight >= 0, "viewport height \(newHeight) is negative")
        height = newHeight
        _clampTop()
        _revealSelection()
    }

    /// Sets ``hasRowsAbove``: whether rows the list does not hold come before its first
    /// row, so that rows arriving above the viewport never move the visible rows.
    ///
    /// - Parameter rowsAbove: whether the start of the list is not loaded.
    /// - Complexity: O(1).
    public mutating func setRowsAbove(_ rowsAbove: Bool) {
        hasRowsAbove = rowsAbove
    }

    /// Shows or hides the trailing row after the last item. A viewport that showed the
    /// last item scrolls to show the new trailing row too, unless that would scroll the
    /// selected row off screen.
    ///
    /// - Parameter shown: whether the trailing row is shown.
    /// - Complexity: O(1).
    public mutating func setTrailingRow(_ shown: Bool) {
        guard shown != hasTrailingRow else { return }
        let wasAtBottom = top >= _maxTop && count > 0
        hasTrailingRow = shown
        if _showsHeaders {
            // The top that shows the new trailing row, if the selection stays in view.
            let bottomTop = _maxTop
            if shown && wasAtBottom && (selection.map { $0 >= bottomTop } ?? true) { top = max(top, bottomTop) }
        } else {
            let keepsSelection = selection.map { $0 > top } ?? true
            if shown && wasAtBottom && top + height <= count && keepsSelection { top += 1 }
        }
        _clampTop()
        _checkInvariants()
    }

    /// Scrolls as little as possible to make the selection visible; when the last item
    /// is selected, the trailing row is shown too (with section headers, if it fits
    /// beside the pinned header and the row).
    mutating func _revealSelection() {
        defer { _checkInvariants() }
        guard let selection, height > 0 else { return }
        if _showsHeaders {
            let withTrailingRow = selection == count - 1 && hasTrailingRow
            if selection < top {
                top = selection
            } else if !visibleRows.contains(withTrailingRow ? count : selection) {
                top = _lowestTop(showing: selection, withTrailingRow: withTrailingRow)
            }
            _clampTop()
            return
        }
        if selection < top { top = selection }
        var bottom = selection
        if selection == count - 1 && hasTrailingRow { bottom = count }
        if bottom >= top + height { top = bottom - height + 1 }
        if selection < top { top = selection }
        _clampTop()
    }

    /// How far a page scrolls: the rows in view but one, at least 1.
    var _pageStep: Int {
        guard _showsHeaders else { return max(1, height - 1) }
        let rows = visibleRows
        return max(1, min(rows.upperBound, count) - rows.lowerBound - 1)
    }
}
