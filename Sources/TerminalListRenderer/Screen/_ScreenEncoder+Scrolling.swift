extension _ScreenEncoder {
    /// Scrolls `region` of the terminal when that leaves fewer rows to rewrite, and
    /// updates `old` to what the terminal then shows.
    ///
    /// For every shift *k* it counts the rows of the region that would still differ
    /// from `new` after scrolling by *k* (rows scrolled in are blank), and scrolls by
    /// the best *k* if that saves more than one row: set the scroll region (DECSTBM),
    /// scroll up (SU) or down (SD), reset the region. Each distinct row is numbered once
    /// (equal rows, blank ones say, share a number), so the shifts compare numbers.
    /// - Complexity: O(*s*²) integer comparisons for a region of *s* rows, plus
    ///   O(*s* · *c*) to number rows of *c* cells.
    static func _scrollIfCheaper(_ old: inout [[ScreenCell]], to new: [[ScreenCell]], region: Range<Int>, into bytes: inout [UInt8]) {
        guard region.count >= 3, region.lowerBound >= 0, region.upperBound <= new.count else { return }
        let columns = new[region.lowerBound].count
        let blank = [ScreenCell](repeating: .blank, count: columns)
        var numbers: [[ScreenCell]: Int] = [blank: 0]
        func number(_ row: [ScreenCell]) -> Int {
            if let known = numbers[row] { return known }
            let next = numbers.count
            numbers[row] = next
            return next
        }
        let oldNumbers = region.map { number(old[$0]) }
        let newNumbers = region.map { number(new[$0]) }
        let base = region.lowerBound

        /// Rows of the region that differ from `new` after scrolling up by `shift`
        /// (down when negative).
        func differing(after shift: Int) -> Int {
            var count = 0
            for row in region {
                let source = row + shift
                let shown = region.contains(source) ? oldNumbers[source - base] : 0
                if newNumbers[row - base] != shown { count += 1 }
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
}
