extension TerminalListRenderer {
    /// Moves the selection by `delta` rows (↑ is -1, ↓ is +1), scrolling as needed.
    ///
    /// The selection stops at the first and last rows.
    ///
    /// - Parameter delta: the number of rows to move; negative moves up.
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*h* · *c* + *h*²) to compare them with the *c* columns on screen.
    public func moveSelection(by delta: Int) {
        _update { $0.viewport.moveSelection(by: delta) }
    }

    /// Scrolls down one screen (PgDn).
    ///
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*h* · *c* + *h*²) to compare them with the *c* columns on screen.
    public func pageDown() {
        _update { $0.viewport.pageDown() }
    }

    /// Scrolls up one screen (PgUp).
    ///
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*h* · *c* + *h*²) to compare them with the *c* columns on screen.
    public func pageUp() {
        _update { $0.viewport.pageUp() }
    }

    /// Selects the first row (g, Home).
    ///
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*h* · *c* + *h*²) to compare them with the *c* columns on screen.
    public func selectFirst() {
        _update { $0.viewport.selectFirst() }
    }

    /// Selects the last row (G, End), showing the trailing row if there is one.
    ///
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*h* · *c* + *h*²) to compare them with the *c* columns on screen.
    public func selectLast() {
        _update { $0.viewport.selectLast() }
    }

    /// Selects the item with `id` and scrolls to it.
    ///
    /// - Parameter id: the id of the item to select.
    /// - Returns: `false` if the list shown does not hold the id.
    /// - Complexity: O((1 + *t*) log *n*) to find the item, *t* = rows tied with it (see
    ///   `ListSnapshot.index(of:)`), plus O(*h* log *n*) to format the *h* visible rows
    ///   and O(*h* · *c* + *h*²) to compare them with the *c* columns on screen.
    @discardableResult
    public func select(id: Item.ID) -> Bool {
        var found = false
        _update { found = $0.viewport.select(id: id) }
        return found
    }

    /// Scrolls so that row `offset` is the first visible one, as far as the list allows.
    ///
    /// - Parameter offset: the row to show first; clamped to the list.
    /// - Complexity: O(*h* log *n*) to format the *h* visible rows of *n*, plus
    ///   O(*h* · *c* + *h*²) to compare them with the *c* columns on screen.
    public func scroll(toTop offset: Int) {
        _update { $0.viewport.scroll(toTop: offset) }
    }
}
