extension ListSnapshot {
    /// Whether `other` is this very snapshot: the same version, sharing all of its
    /// storage (or both empty).
    ///
    /// `true` guarantees that both hold the same rows. `false` guarantees nothing: two
    /// snapshots built separately can hold equal rows. A batch continues from a snapshot
    /// `s` exactly when `s.isIdentical(to: batch.old)`, whatever data source the batch
    /// came from, so a consumer attached to one data source after another can tell a
    /// batch that continues what it shows from one that only has the same version number.
    ///
    /// ```swift
    /// if shown.isIdentical(to: batch.old) { apply(batch.steps) } else { reload(batch.new) }
    /// ```
    /// - Parameter other: another snapshot of a list of the same item type.
    /// - Returns: whether the two are one snapshot.
    /// - Complexity: O(1).
    @inlinable public func isIdentical(to other: ListSnapshot) -> Bool {
        version == other.version && _storage.rows.root === other._storage.rows.root
    }
}
