@testable import ListPagination
import ListTestSupport
import Testing

/// A window's fences, resolved once to the item type, against what each fence means.
@Suite struct ItemFencesTests {
    typealias Fence = _PaginationStateMachine<KeysetCursor<Int>>.Fence
    typealias Window = _PaginationStateMachine<KeysetCursor<Int>>.Window

    /// Rows with keys 0…9, two per key, so that ties with a bound are tested too.
    static let rows = (0..<20).map { TestRow(id: $0, key: $0 / 2) }

    static func fences(around key: Int) -> [Fence] {
        [.open, .shut, .inclusive(_RowBound(TestRow(id: 100, key: key))), .exclusive(_RowBound(TestRow(id: 101, key: key)))]
    }

    /// What `fence` lets in as the window's lower (`isLower`) or upper end, spelled out.
    static func lets(_ row: TestRow, through fence: Fence, isLower: Bool) -> Bool {
        switch fence {
        case .open: true
        case .shut: false
        case .inclusive(let bound): isLower ? row.key >= (bound.value(as: TestRow.self)?.key ?? .max) : row.key <= (bound.value(as: TestRow.self)?.key ?? .min)
        case .exclusive(let bound): isLower ? row.key > (bound.value(as: TestRow.self)?.key ?? .max) : row.key < (bound.value(as: TestRow.self)?.key ?? .min)
        }
    }

    @Test func eachPairOfFencesAdmitsTheRowsBetweenThem() {
        for lower in Self.fences(around: 3) {
            for upper in Self.fences(around: 7) {
                let window = Window(lower: lower, upper: upper)
                let fences = _ItemFences<TestRow>(window)
                for row in Self.rows {
                    let expected = Self.lets(row, through: lower, isLower: true) && Self.lets(row, through: upper, isLower: false)
                    #expect(fences.admits(row) == expected, "\(window): row \(row)")
                    #expect(Paginator<KeysetLoader<TestRow, Int>, ContinuousClock>._admits(row, window) == expected)
                }
            }
        }
    }

    @Test func aBoundOfAnotherTypeAdmitsNothing() {
        let window = Window(lower: .inclusive(_RowBound("a string")), upper: .open)
        #expect(Self.rows.allSatisfy { !_ItemFences<TestRow>(window).admits($0) })
    }
}
