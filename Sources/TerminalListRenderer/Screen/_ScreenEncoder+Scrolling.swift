extension _ScreenEncoder {
    /// Scrolls `region` of the terminal when that leaves fewer rows to rewrite, and
    /// updates `old` to what the terminal then shows.
    ///
    /// For every shift *k* it counts the rows of the region that would still differ
    /// from `new` after scrolling by *k* (rows scrolled in are blank), and scrolls by
    /// the best *k* if that saves more than one row: set the scroll region (DECSTBM),
    /// scroll up (SU) or down (SD), reset the region. Rows are compared by hash first.
    /// - Complexity: O(*s*²) for a region of *s* rows, plus O(*s* · *c*) to hash them.
    static func _scrollIfCheaper(_ old: inout [[ScreenCell]], to new: [[ScreenCell]], region: Range<Int>, into bytes: inout [UInt8]) {
        guard region.count >= 3, region.lowerBound >= 0, region.upperBound <= new.count else { return }
        let columns = new[region.lowerBound].count
        let blank = [ScreenCell](repeating: .blank, count: columns)
        let blankHash = _hash(blank)
        let oldHashes = region.map { _hash(old[$0]) }
        let newHashes = region.map { _hash(new[$0]) }
        let base = region.lowerBound

        /// Rows of the region that differ from `new` after scrolling up by `shift`
        /// (down when negative).
        func differing(after shift: Int) -> Int {
            var count = 0
            for row in region {
                let source = row + shift
                if region.contains(source) {
                    if newHashes[row - base] != oldHashes[source - base] || new[row] != old[source] { count += 1 }
                } else if newHashes[row - base] != blankHash || new[row] != blank {
                    count += 1
                }
            }
            return count
        }

        let unshifted = differing(after: 0)
        guard unshifted > 2 else { return }
        var best = (shift: 0, differing: unshifted)
        for shift in (1 - region.count)..<region.count where shift != 0 {
            let candidate = differing(after: shift)
            if candidate < best.differing { best = (shift, candidate) }
        }
        guard best.shift != 0, best.differing + 1 < unshifted else { return }

        _ControlSequence.setScrollRegion(region, into: &bytes)
        _ControlSequence.scroll(by: best.shift, into: &bytes)
        bytes += _ControlSequence.resetScrollRegion
        let previous = old
        for row in region {
            let source = row + best.shift
            old[row] = region.contains(source) ? previous[source] : blank
        }
    }

    static func _hash(_ row: [ScreenCell]) -> Int {
        var hasher = Hasher()
        for cell in row { hasher.combine(cell) }
        return hasher.finalize()
    }
}
