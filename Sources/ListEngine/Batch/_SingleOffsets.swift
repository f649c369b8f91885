/// Arrays of one offset, shared: a one-row change in a short list names its row's old and
/// new offsets in arrays (its edit record, its batch's insertion, deletion or reload), and
/// taking each from here retains a shared storage where making it would allocate one.
///
/// The arrays are immutable values like any other, so sharing their storage is invisible:
/// appending to one copies it first. Offsets from -1 (an edit record's "absent") to
/// ``limit`` − 1 are shared; others are made as usual.
@usableFromInline enum _SingleOffsets {
    /// Offsets below this are shared: 1,025 arrays with -1, about 60 KB in all, made on
    /// first use.
    @inlinable static var limit: Int { 1_024 }

    /// `[offset]` for offsets -1 ..< ``limit``, in order from -1.
    @usableFromInline static let shared: [[Int]] = (-1 ..< limit).map { [$0] }

    /// `[offset]`, from the shared arrays when `offset` is in -1 ..< ``limit``.
    ///
    /// - Complexity: O(1).
    @inlinable static func array(_ offset: Int) -> [Int] {
        offset >= -1 && offset < limit ? shared[offset + 1] : [offset]
    }
}
