import Dispatch
import ListEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-interactive tour of the engine: each mutation, and the batch a renderer on the
/// main queue receives for it. Runs under `dispatchMain()`, so it also shows that
/// main-queue delivery works without a run loop of any UI kit.
enum Walkthrough {
    typealias Row = DataSourceItem<String>

    /// Prints every batch: what changed, as sets and as steps, and the rows after it.
    final class PrintingRenderer: ListRenderer {
        func render(_ batch: ChangeBatch<Row>) {
            print("  batch v\(batch.old.version) → v\(batch.version)")
            if !batch.deletions.isEmpty { print("    deletions  \(batch.deletions)") }
            if !batch.insertions.isEmpty { print("    insertions \(batch.insertions)") }
            if !batch.moves.isEmpty { print("    moves      \(batch.moves.map(\.description).joined(separator: ", "))") }
            if !batch.reloads.isEmpty { print("    reloads    \(batch.reloads)") }
            let steps = batch.steps.map { step -> String in
                switch step {
                case .remove(let offset): "remove \(offset)"
                case .insert(let row, let offset): "insert \(row.uid)@\(offset)"
                case .move(let from, let to): "move \(from)→\(to)"
                case .reload(let row, let offset): "reload \(row.uid)@\(offset)"
                }
            }
            print("    steps      \(steps.joined(separator: ", "))")
            print("    rows       " + batch.new.map { "\($0.uid)(\(Self.format($0.index))) \($0.value)" }.joined(separator: " · "))
        }

        static func format(_ index: Double) -> String {
            index == index.rounded() ? String(Int(index)) : String(index)
        }
    }

    /// Runs the tour and exits the process when it is done.
    static func run() -> Never {
        let players = ListDataSource<Row>()
        players.attach(PrintingRenderer(), on: .main)
        Task {
            // The attach batch is printed before the first step's title.
            await players.flush()
            await step("load four players (any order in, sorted out)", players) {
                $0.add([
                    Row(uid: "ana", value: "Ana", index: 3), Row(uid: "bo", value: "Bo", index: 1),
                    Row(uid: "cy", value: "Cy", index: 4), Row(uid: "di", value: "Di", index: 2),
                ])
            }
            await step("rename Cy: same place, one reload", players) {
                $0.add(Row(uid: "cy", value: "Cyrus", index: 4))
            }
            await step("Cy's index drops to 1.5: one move (and a reload), nobody else moves", players) {
                $0.add(Row(uid: "cy", value: "Cyrus", index: 1.5))
            }
            // One step per call: calls in flight together may share a batch or not,
            // depending on when the diff queue takes them, and the tour prints the same
            // batches every run.
            await step("add Ed and Flo in one call: one batch, two insertions", players) {
                $0.add([Row(uid: "ed", value: "Ed", index: 0.5), Row(uid: "flo", value: "Flo", index: 9)])
            }
            await step("remove Bo", players) {
                $0.remove(ids: ["bo"])
            }
            await step("re-add Ana unchanged: no batch at all", players) {
                $0.add(Row(uid: "ana", value: "Ana", index: 3))
            }
            await step("re-sort by name, descending: the fewest moves", players) {
                $0.sort(by: { $0.value > $1.value })
            }
            await step("replaceAll from a 'server': keep, change, drop, add", players) {
                $0.replaceAll(with: [
                    Row(uid: "ana", value: "Ana", index: 3), Row(uid: "di", value: "Dee", index: 2),
                    Row(uid: "gus", value: "Gus", index: 7),
                ])
            }
            let final = await players.flush()
            print("final v\(final.version): \(final.map(\.uid))")
            exit(0)
        }
        dispatchMain()
    }

    private static func step(_ title: String, _ players: ListDataSource<Row>, _ mutate: (ListDataSource<Row>) -> Void) async {
        print("• \(title)")
        mutate(players)
        await players.flush()
    }
}
