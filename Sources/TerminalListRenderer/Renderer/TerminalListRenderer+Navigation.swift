extension TerminalListRenderer {
    /// Moves the selection by `delta` rows (↑ is -1, ↓ is +1), scrolling as needed.
    public func moveSelection(by delta: Int) {
        _update { $0.viewport.moveSelection(by: delta) }
    }

    /// Scrolls down one screen (PgDn).
    public func pageDown() {
        _update { $0.viewport.pageDown() }
    }

    /// Scrolls up one screen (PgUp).
    public func pageUp() {
        _update { $0.viewport.pageUp() }
    }

    /// Selects the first row (g, Home).
    public func selectFirst() {
        _update { $0.viewport.selectFirst() }
    }

    /// Selects the last row (G, End), showing the trailing row if there is one.
    public func selectLast() {
        _update { $0.viewport.selectLast() }
    }

    /// Selects the item with `id` and scrolls to it.
    ///
    /// - Returns: `false` if the list shown does not hold the id.
    /// - Complexity: O(log *n*).
    @discardableResult
    public func select(id: Item.ID) -> Bool {
        var found = false
        _update { found = $0.viewport.select(id: id) }
        return found
    }

    /// Scrolls so that row `offset` is the first visible one, as far as the list allows.
    public func scroll(toTop offset: Int) {
        _update { $0.viewport.scroll(toTop: offset) }
    }
}
