import ListEngine

/// A window's two fences with their rows cast back to the item type once, so that many
/// rows can be tested against them with comparisons alone.
///
/// A fence whose row is not an `Item` (which the paginator never makes) lets no row in,
/// as a shut fence does.
struct _ItemFences<Item: DataSourceComparable>: Sendable {
    private enum Fence: Sendable {
        case open
        case shut
        case inclusive(Item)
        case exclusive(Item)

        init<Cursor>(_ fence: _PaginationStateMachine<Cursor>.Fence) {
            func row(_ bound: _RowBound) -> Item? { bound.value(as: Item.self) }
            switch fence {
            case .open: self = .open
            case .shut: self = .shut
            case .inclusive(let bound): self = row(bound).map(Fence.inclusive) ?? .shut
            case .exclusive(let bound): self = row(bound).map(Fence.exclusive) ?? .shut
            }
        }
    }

    private let lower: Fence
    private let upper: Fence

    /// Casts the rows of `window`'s fences.
    ///
    /// - Complexity: O(1): two dynamic casts at most.
    init<Cursor>(_ window: _PaginationStateMachine<Cursor>.Window) {
        lower = Fence(window.lower)
        upper = Fence(window.upper)
    }

    /// Whether the window lets `item` in.
    ///
    /// - Complexity: O(1): two comparisons at most.
    func admits(_ item: Item) -> Bool {
        let aboveLower = switch lower {
        case .open: true
        case .shut: false
        case .inclusive(let row): !(item < row)
        case .exclusive(let row): row < item
        }
        guard aboveLower else { return false }
        return switch upper {
        case .open: true
        case .shut: false
        case .inclusive(let row): !(row < item)
        case .exclusive(let row): item < row
        }
    }
}
