import Dispatch
import ListTestSupport
import Synchronization
import Testing
import WebListRenderer

/// Labels with everything escaping must get right: markup, quotes, ampersands,
/// non-ASCII, double-width and emoji text.
let trickyLabels = [
    "plain",
    #"<b>Bold</b> & "Quoted""#,
    #"O'Connor <script>alert("x")</script>"#,
    "Zoë Lindqvist",
    "王小明",
    "Kai 🦊",
    "👩‍💻 Dana",
    "a\\b \"c\" \n d",
]

/// The wire format of `TestRow` used throughout these tests.
let testRowFormat = WebListFormat<TestRow>(id: { "r\($0)" }) { row in
    "<span class=\"key\" data-key=\"\(row.key)\">\(row.key)</span> <em title=\"\(trickyLabels[row.payload % trickyLabels.count])\">\(trickyLabels[row.payload % trickyLabels.count])</em>"
}

/// The wire rows a client should show for `snapshot`.
func wireRows(_ snapshot: ListSnapshot<TestRow>, format: WebListFormat<TestRow> = testRowFormat) -> [WebListRow] {
    snapshot.map(format.row)
}

/// Collects frames passed to a `send` closure.
final class FrameLog: Sendable {
    private let frames = LockedState<[WebListFrame]>([])
    func append(_ frame: WebListFrame) { frames.withLock { $0.append(frame) } }
    var all: [WebListFrame] { frames.withLock { $0 } }
}

/// Random mutations of a `ListDataSource<TestRow>`, drawn from a seeded generator.
struct RandomMutator {
    var random: SplitMix64
    var nextID = 0
    let keyRange: Range<Int>

    init(seed: UInt64, keyRange: Range<Int> = 0 ..< 12) {
        random = SplitMix64(seed: seed)
        self.keyRange = keyRange
    }

    mutating func row(id: Int? = nil) -> TestRow {
        let id = id ?? { nextID += 1; return nextID }()
        return TestRow(id: id, key: random.int(in: keyRange), payload: random.int(in: 0 ..< 40))
    }

    /// Submits one random mutation; returns what it was, for failure messages.
    @discardableResult
    mutating func mutate(_ source: ListDataSource<TestRow>, known: [TestRow]) -> String {
        let roll = random.int(in: 0 ..< 100)
        switch roll {
        case 0 ..< 40:
            let rows = (0 ..< random.int(in: 1 ..< 6)).map { _ in
                !known.isEmpty && random.chance(0.5) ? row(id: known[random.int(in: 0 ..< known.count)].id) : row()
            }
            source.add(rows)
            return "add \(rows)"
        case 40 ..< 65:
            guard !known.isEmpty else { return "skip" }
            let ids = (0 ..< random.int(in: 1 ..< 4)).map { _ in known[random.int(in: 0 ..< known.count)].id } + [999_999]
            source.remove(ids: ids)
            return "remove \(ids)"
        case 65 ..< 80:
            let keep = known.filter { _ in random.chance(0.7) }.map { random.chance(0.3) ? row(id: $0.id) : $0 }
            let rows = keep + (0 ..< random.int(in: 0 ..< 4)).map { _ in row() }
            source.replaceAll(with: rows)
            return "replaceAll \(rows)"
        case 80 ..< 95:
            let order = TestOrder.allCases[random.int(in: 0 ..< TestOrder.allCases.count)]
            source.sort(by: order.comparator)
            return "sort \(order)"
        default:
            source.removeAll()
            return "removeAll"
        }
    }
}

/// Holds the formatting of one row, once, until released: a render held in the middle.
final class FormatHold: Sendable {
    /// Signalled when the formatting is held.
    let entered = DispatchSemaphore(value: 0)
    /// Signal to let it go on.
    let release = DispatchSemaphore(value: 0)
    private let armed = Atomic<Bool>(true)

    func pass(_ id: Int, holding held: Int) {
        guard id == held, armed.exchange(false, ordering: .acquiringAndReleasing) else { return }
        entered.signal()
        release.wait()
    }
}

/// `testRowFormat`, except that formatting row `held` waits at `hold` the first time.
func format(holdingRow held: Int, at hold: FormatHold) -> WebListFormat<TestRow> {
    WebListFormat<TestRow>(id: { "r\($0)" }) { (row: TestRow) -> HTML in
        hold.pass(row.id, holding: held)
        return HTML.raw(testRowFormat.row(row).html)
    }
}

/// A renderer that logs its frames, attached to `first` until it has rendered it, then
/// detached and attached to `second` (not yet flushed).
func logRenderer(movedFrom first: ListDataSource<TestRow>, to second: ListDataSource<TestRow>) async -> (WebListRenderer<TestRow>, FrameLog) {
    let log = FrameLog()
    let renderer = WebListRenderer(format: testRowFormat, send: log.append)
    let token = first.attach(renderer)
    await first.flush()
    first.detach(token)
    second.attach(renderer)
    return (renderer, log)
}

/// A list holding `ids`, built by one flushed `add` per id: at version `ids.count`.
func listBuiltOneRowAtATime(ids: ClosedRange<Int>) async -> ListDataSource<TestRow> {
    let source = ListDataSource<TestRow>()
    for id in ids {
        source.add(TestRow(id: id, key: id))
        await source.flush()
    }
    return source
}

/// A new replica that applied `frames` in order, as list-client.js does; each frame is
/// expected to apply.
func replayed(_ frames: [WebListFrame], sourceLocation: SourceLocation = #_sourceLocation) -> WebListReplica {
    var replica = WebListReplica()
    for frame in frames {
        #expect(replica.apply(json: frame.json) == .applied, "\(frame.json)", sourceLocation: sourceLocation)
    }
    return replica
}

