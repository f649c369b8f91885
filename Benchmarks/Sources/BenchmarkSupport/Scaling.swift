#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ListEngine

/// How the cost of a change grows with the list: a one-row update and a batch naming 1 %
/// of the rows, on lists of 10⁴ to 10⁷ rows, timed per changed row.
///
/// Each size gets a list of `n` rows (``Rows/make(count:start:prefix:seed:)``) with a
/// renderer attached. A *one-row update* gives one row a new sort index (it moves) and
/// waits for `flush()`; a *1 % batch* gives `n / 100` rows new sort indexes in one `add`
/// and waits for `flush()`. Each is repeated, and the median kept. With storage that is
/// a B-tree with subtree counts, a change of *k* rows costs O(*k* log *n*): the time per
/// changed row grows with log *n*, by about 7 / 4 from 10⁴ to 10⁷ rows.
public enum Scaling {
    /// One size's medians.
    public struct Point: Sendable {
        public let rows: Int
        /// The median time of a one-row update.
        public let oneRow: Duration
        /// The median time of a 1 % batch, divided by the rows it changes.
        public let batchPerRow: Duration
    }

    /// The sizes measured.
    public static let sizes = [10_000, 100_000, 1_000_000, 10_000_000]

    /// Measures one size.
    ///
    /// - Parameters:
    ///   - rows: the list's size.
    ///   - oneRowRepeats: how many one-row updates (the median is kept).
    ///   - batchRepeats: how many 1 % batches (the median is kept).
    public static func measure(rows: Int, oneRowRepeats: Int = 201, batchRepeats: Int = 9) async -> Point {
        var model = Rows.make(count: rows, seed: 7_000 + UInt64(rows))
        let source = ListDataSource<Row>(model)
        source.attach(DroppingRenderer())
        await source.flush()
        var rng = SplitMix64(seed: 77)
        let clock = ContinuousClock()

        var oneRow: [Duration] = []
        for _ in 0 ..< oneRowRepeats {
            let offset = rng.int(in: 0 ..< rows)
            model[offset].index = rng.unitDouble()
            let changed = model[offset]
            let start = clock.now
            source.add(changed)
            await source.flush()
            oneRow.append(clock.now - start)
        }

        let batchSize = rows / 100
        var perRow: [Duration] = []
        for _ in 0 ..< batchRepeats {
            var changed: [Row] = []
            changed.reserveCapacity(batchSize)
            for offset in Rows.distinctOffsets(count: batchSize, in: rows, rng: &rng) {
                model[offset].index = rng.unitDouble()
                changed.append(model[offset])
            }
            let start = clock.now
            source.add(changed)
            await source.flush()
            perRow.append((clock.now - start) / batchSize)
        }
        let snapshot = source.snapshot
        precondition(snapshot.count == rows, "scaling: the list holds \(snapshot.count) rows, not \(rows)")
        return Point(rows: rows, oneRow: median(oneRow), batchPerRow: median(perRow))
    }

    static func median(_ values: [Duration]) -> Duration {
        values.sorted()[values.count / 2]
    }

    /// A log-log plot of the time per changed row against the rows, both changes, as an
    /// SVG document.
    public static func svg(_ points: [Point]) -> String {
        let width = 640.0, height = 400.0, left = 80.0, right = 170.0, top = 30.0, bottom = 60.0
        func microseconds(_ duration: Duration) -> Double { Double(duration / .nanoseconds(1)) / 1_000 }
        let values = points.flatMap { [microseconds($0.oneRow), microseconds($0.batchPerRow)] }.filter { $0 > 0 }
        guard let smallest = values.min(), let largest = values.max(), let fewest = points.first?.rows, let most = points.last?.rows else {
            return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"
        }
        let low = (smallest / 2).log10Floor, high = (largest * 2).log10Ceiling
        let x = { (rows: Int) -> Double in
            left + (width - left - right) * (log10(Double(rows)) - log10(Double(fewest))) / max(1e-9, log10(Double(most)) - log10(Double(fewest)))
        }
        let y = { (value: Double) -> Double in
            top + (height - top - bottom) * (1 - (log10(value) - low) / max(1e-9, high - low))
        }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="18" font-size="14">Time per changed row (µs, log scale) against rows in the list</text>

            """
        var decade = low
        while decade <= high + 1e-9 {
            let value = pow(10, decade), position = y(value)
            svg += "<line x1=\"\(left)\" y1=\"\(position)\" x2=\"\(width - right)\" y2=\"\(position)\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(left - 8)\" y=\"\(position + 4)\" text-anchor=\"end\">\(label(value))</text>\n"
            decade += 1
        }
        for point in points {
            let position = x(point.rows)
            svg += "<line x1=\"\(position)\" y1=\"\(top)\" x2=\"\(position)\" y2=\"\(height - bottom)\" stroke=\"#eee\"/>"
            svg += "<text x=\"\(position)\" y=\"\(height - bottom + 18)\" text-anchor=\"middle\">\(rowsLabel(point.rows))</text>\n"
        }
        svg += "<text x=\"\((left + width - right) / 2)\" y=\"\(height - 15)\" text-anchor=\"middle\">rows in the list</text>\n"
        let series: [(name: String, color: String, value: (Point) -> Double)] = [
            ("one-row update", "#1f77b4", { microseconds($0.oneRow) }),
            ("1 % batch, per row", "#d62728", { microseconds($0.batchPerRow) }),
        ]
        for (index, line) in series.enumerated() {
            let coordinates = points.map { "\(x($0.rows)),\(y(line.value($0)))" }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\" points=\"\(coordinates)\"/>\n"
            for point in points {
                svg += "<circle cx=\"\(x(point.rows))\" cy=\"\(y(line.value(point)))\" r=\"4\" fill=\"\(line.color)\"/>"
            }
            let legendY = top + 20 + Double(index) * 20
            svg += "\n<line x1=\"\(width - right + 15)\" y1=\"\(legendY)\" x2=\"\(width - right + 35)\" y2=\"\(legendY)\" stroke=\"\(line.color)\" stroke-width=\"2\"/>"
            svg += "<text x=\"\(width - right + 40)\" y=\"\(legendY + 4)\">\(line.name)</text>\n"
        }
        return svg + "</svg>\n"
    }

    static func label(_ value: Double) -> String {
        value >= 1 ? String(Int(value.rounded())) : String(value)
    }

    static func rowsLabel(_ rows: Int) -> String {
        var exponent = 0, value = rows
        while value >= 10, value % 10 == 0 { value /= 10; exponent += 1 }
        return value == 1 ? "10^\(exponent)" : String(rows)
    }
}

/// Drops every batch: a renderer that costs nothing.
final class DroppingRenderer: ListRenderer {
    func render(_ batch: ChangeBatch<Row>) {}
}

extension Double {
    var log10Floor: Double { log10(self).rounded(.down) }
    var log10Ceiling: Double { log10(self).rounded(.up) }
}
