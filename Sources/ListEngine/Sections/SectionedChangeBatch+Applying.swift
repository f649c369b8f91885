extension SectionedChangeBatch {
    /// Turns nested arrays holding the sections of `old` (one array of rows per section,
    /// in order) into the sections of `new`: the change the index-path ``steps`` make,
    /// made in one pass.
    ///
    /// ```swift
    /// var sections = batch.old.sections.map { $0.rows.map { batch.old.rows[$0] } }
    /// batch.apply(to: &sections)   // one array per section of batch.new
    /// ```
    /// Rows that stay keep their elements (only reloads are replaced), as
    /// ``ChangeBatch/apply(to:)`` does for a flat array.
    ///
    /// - Parameter sections: the rows of each section of `old`; on return, those of `new`.
    /// - Complexity: O(*n* + *k* log *k*) for *n* rows and *k* changes: the sections are
    ///   joined, the flat batch ``rows`` is applied, and the result is cut at the
    ///   sections of `new`.
    @inlinable public func apply(to sections: inout [[Item]]) {
        precondition(
            sections.count == old.sections.count && zip(sections, old.sections).allSatisfy { $0.count == $1.rows.count },
            "apply(to:) needs one array per section of the batch's old snapshot, with its rows"
        )
        var flat: [Item] = []
        flat.reserveCapacity(old.rows.count)
        for section in sections { flat.append(contentsOf: section) }
        sections = []
        rows.apply(to: &flat)
        sections = new.sections.map { Array(flat[$0.rows]) }
    }
}
