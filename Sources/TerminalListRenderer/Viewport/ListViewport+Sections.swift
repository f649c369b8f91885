extension ListViewport {
    /// What one line of a viewport shows.
    ///
    /// A flat list's lines are rows, then the trailing row, then empty lines. A sectioned
    /// list's first line is the header of the section of the first visible row (pinned
    /// while that section scrolls by), and a header line comes before the first row of
    /// every other section in view.
    public enum Line: Hashable, Sendable {
        /// The header of the section at offset `section` in the snapshot's sections,
        /// whose rows are `rows` (flat offsets).
        case sectionHeader(section: Int, rows: Range<Int>)
        /// The row at this flat offset.
        case row(Int)
        /// The trailing row after the last item (see ``ListViewport/hasTrailingRow``).
        case trailingRow
        /// Nothing: the list ends above.
        case empty
    }

    /// Whether the list shown has sections: the last batch applied was a sectioned one.
    ///
    /// - Complexity: O(1).
    public var isSectioned: Bool { _sections != nil }

    /// The ``height`` lines of the viewport, top to bottom.
    ///
    /// ```swift
    /// for line in viewport.lines {
    ///     if case .sectionHeader(let section, let rows) = line { print("section \(section): \(rows.count) rows") }
    /// }
    /// ```
    ///
    /// - Complexity: O(*h*) for a flat list, *h* = ``height``; with section headers,
    ///   O(*h* log *s* (log *n* + log *s*)) to read the bounds of the sections in view.
    public var lines: [Line] {
        var lines: [Line] = []
        lines.reserveCapacity(height)
        if _showsHeaders, let sections = _sections {
            var section = sections.section(containingRow: top)
            var rows = sections.rows(ofSection: section)
            lines.append(.sectionHeader(section: section, rows: rows))
            var offset = top
            while lines.count < height && offset <= count {
                if offset < rows.upperBound {
                    lines.append(.row(offset))
                    offset += 1
                } else if offset < count {
                    section += 1
                    rows = sections.rows(ofSection: section)
                    lines.append(.sectionHeader(section: section, rows: rows))
                } else {
                    if hasTrailingRow { lines.append(.trailingRow) }
                    break
                }
            }
        } else {
            for line in 0..<height {
                let offset = top + line
                lines.append(offset < count ? .row(offset) : offset == count && hasTrailingRow ? .trailingRow : .empty)
            }
        }
        while lines.count < height { lines.append(.empty) }
        return lines
    }

    /// Follows a batch of a sectioned list: anchors the visible rows and moves the
    /// selection with its item, as ``apply(_:)-(ChangeBatch<Item>)`` does for the same change
    /// on the flat rows (`batch.rows`), and shows the new sections.
    ///
    /// ```swift
    /// for await batch in leaderboard.batches() { viewport.apply(batch) }
    /// ```
    ///
    /// - Parameter batch: the next batch of the list.
    /// - Complexity: O(*k* log *k*) for *k* changed rows, plus O(*h*) binary searches
    ///   and O(*h*) reads of section bounds (O(log *s* (log *n* + log *s*)) each) for a
    ///   height of *h*; independent of the length of the list.
    public mutating func apply<Section>(_ batch: SectionedChangeBatch<Section, Item>) {
        _apply(batch.rows, sections: _SectionedRows(snapshot: batch.new))
    }

    /// Shows or hides the section headers of a sectioned list. The first visible row
    /// stays first, and a selected row stays in view.
    ///
    /// - Parameter shown: whether section headers are shown.
    /// - Complexity: O(*h* log *s* (log *n* + log *s*)) for a height of *h*.
    public mutating func setSectionHeaders(_ shown: Bool) {
        guard shown != showsSectionHeaders else { return }
        showsSectionHeaders = shown
        _clampTop()
        _revealSelection()
    }

    /// Whether the lines include section headers: the list has sections and rows, the
    /// headers are on, and there are at least two lines (a header and a row).
    var _showsHeaders: Bool {
        _sections != nil && showsSectionHeaders && height >= 2 && count > 0
    }

    /// The smallest ``top`` that still shows row `last` (and after it the trailing row,
    /// if `withTrailingRow` and it fits at all), with section headers shown.
    ///
    /// Walks up from `last` a section at a time: a row of the same section costs one
    /// line, the last row of the section above costs two (itself, and the header of the
    /// section below it, no longer pinned).
    ///
    /// - Complexity: O(*h* log *s* (log *n* + log *s*)) for a height of *h*.
    func _lowestTop(showing last: Int, withTrailingRow: Bool) -> Int {
        guard let sections = _sections else { return last }
        // Lines left after the pinned header, row `last` and the trailing row.
        var budget = height - 2
        if withTrailingRow && budget >= 1 { budget -= 1 }
        var section = sections.section(containingRow: last)
        var top = last
        while true {
            let start = sections.rows(ofSection: section).lowerBound
            if budget <= top - start { return top - budget }
            budget -= top - start
            top = start
            guard section > 0, budget >= 2 else { return top }
            budget -= 2
            section -= 1
            top -= 1
        }
    }
}

/// The section bounds a ``ListViewport`` reads, whatever the section key type.
protocol _SectionBounds: Sendable {
    /// The version of the rows these sections group.
    var version: Int { get }
    /// The number of sections.
    var count: Int { get }
    /// The flat offsets of the rows of section `index`.
    func rows(ofSection index: Int) -> Range<Int>
}

extension _SectionBounds {
    /// The section that holds the row at flat `offset`, a valid row offset.
    ///
    /// - Complexity: O(log *s*) reads of section bounds.
    func section(containingRow offset: Int) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = low + (high - low) / 2
            if rows(ofSection: middle).lowerBound <= offset { low = middle + 1 } else { high = middle }
        }
        precondition(low > 0, "row \(offset) is before the first section")
        return low - 1
    }
}

/// The sections of a ``SectionedSnapshot``, as a viewport reads them.
struct _SectionedRows<Section: Hashable & Comparable & Sendable, Item: Hashable & DataSourceComparable>: _SectionBounds {
    let snapshot: SectionedSnapshot<Section, Item>

    var version: Int { snapshot.version }
    var count: Int { snapshot.sections.count }

    /// - Complexity: O(log *n* + log *s*).
    func rows(ofSection index: Int) -> Range<Int> { snapshot.sections[index].rows }
}
