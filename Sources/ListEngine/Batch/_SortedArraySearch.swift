extension Array where Element: Comparable {
    /// The number of elements less than `value`, for an ascending array.
    ///
    /// - Complexity: O(log *n*).
    @inlinable func _countLess(than value: Element) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
