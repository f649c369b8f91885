/// Marks one longest strictly increasing subsequence of `values`.
///
/// Patience sorting (Schensted; see Fredman, "On computing the length of longest
/// increasing subsequences", 1975): `tails[k]` holds the index of the smallest possible
/// last value of an increasing subsequence of length `k + 1`; predecessor links rebuild
/// one subsequence of maximal length.
///
/// - Returns: a mask, `true` at the indices that belong to the subsequence.
/// - Complexity: O(*k* log *k*) comparisons, *k* = `values.count`; O(*k*) when every value
///   exceeds the one before it, as when most rows stay in place.
@inlinable func _longestIncreasingSubsequenceMask(_ values: [Int]) -> [Bool] {
    var tails: [Int] = []
    var tailValues: [Int] = []  // values[tails[k]], kept beside tails so the search reads one array
    tails.reserveCapacity(min(values.count, 1024))
    tailValues.reserveCapacity(min(values.count, 1024))
    var predecessor = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
        var low = 0, high = tailValues.count
        // Mostly increasing input (most rows stay) extends the longest run: no search.
        if let last = tailValues.last, last < value { low = high }
        while low < high {
            let mid = (low + high) / 2
            if tailValues[mid] < value { low = mid + 1 } else { high = mid }
        }
        if low > 0 { predecessor[index] = tails[low - 1] }
        if low == tails.count {
            tails.append(index)
            tailValues.append(value)
        } else {
            tails[low] = index
            tailValues[low] = value
        }
    }
    var mask = [Bool](repeating: false, count: values.count)
    var cursor = tails.last ?? -1
    while cursor >= 0 {
        mask[cursor] = true
        cursor = predecessor[cursor]
    }
    return mask
}
