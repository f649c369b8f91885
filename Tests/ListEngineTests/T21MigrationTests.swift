import ListEngine
import ListTestSupport
import Testing

// T21TableViewDataSource's documented examples, replayed with ListEngine's calls, and
// the code of the "Coming from T21TableViewDataSource" article
// (Sources/ListEngine/ListEngine.docc/ComingFromT21.md), compiled and run here so that
// the article cannot drift from the library. Keep the two in step: a change to one of
// these declarations belongs in the article too.

/// The article's renderer: rows that belong to the main actor; attach it on `.main`.
@MainActor final class TitleTable: ListRenderer {
    private(set) var rows: [DataSourceItem<String>] = []

    nonisolated func render(_ batch: ChangeBatch<DataSourceItem<String>>) {
        MainActor.assumeIsolated {
            batch.apply(to: &rows)
        }
    }
}

/// One kind of payload of the article's feed.
struct Photo: Hashable, Sendable {
    var name: String
    var width: Int
    var height: Int
}

/// The article's closed set of payloads.
enum FeedEntry: Hashable, Sendable {
    case header(String)
    case photo(Photo)
    case counter(Int)
}

/// The article's open wrapper: any hashable, sendable value, compared as `AnyHashable`.
struct AnyPayload: Hashable, Sendable {
    let base: any Hashable & Sendable

    init(_ base: some Hashable & Sendable) {
        self.base = base
    }

    static func == (lhs: AnyPayload, rhs: AnyPayload) -> Bool {
        AnyHashable(lhs.base) == AnyHashable(rhs.base)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(base))
    }
}

@Suite struct T21MigrationTests {
    typealias Item = DataSourceItem<String>

    /// T21's three items, in T21's argument order.
    let itemA = DataSourceItem("This item is A", "itemA", 1.0)
    let itemB = DataSourceItem("This item is B", "itemB", 2.0)
    let itemC = DataSourceItem("This item is C", "itemC", 3.0)

    /// A list holding T21's three items, added out of order, with a recorder attached
    /// and every batch so far taken.
    func listOfABC() async -> (ListDataSource<Item>, BatchRecorder<Item>) {
        let dataSource = ListDataSource<Item>()
        let recorder = BatchRecorder<Item>()
        dataSource.attach(recorder)
        dataSource.add([itemB, itemA, itemC])
        _ = await dataSource.flush()
        _ = recorder.take()
        return (dataSource, recorder)
    }

    // MARK: - The initializer

    @Test("an unlabeled call takes T21's order: value, then uid, then index")
    func unlabeledCallsTakeValueThenUID() {
        let itemA = DataSourceItem("This item is A", "itemA", 1.0)
        #expect(itemA.uid == "itemA")
        #expect(itemA.value == "This item is A")
        #expect(itemA.index == 1)
        #expect(itemA == DataSourceItem(uid: "itemA", value: "This item is A", index: 1))

        // Two strings: the first is the value, whatever they say.
        let twoStrings = DataSourceItem("a", "b")
        #expect(twoStrings.value == "a" && twoStrings.uid == "b")
        #expect(twoStrings.id == "b")

        // T21's default index is -1: below every index from 0 up.
        #expect(twoStrings.index == -1)
        #expect(twoStrings < DataSourceItem("z", "a", 0))

        let number = DataSourceItem(42, "answer", 2)
        #expect(number.value == 42 && number.uid == "answer" && number.index == 2)
        let explicit = DataSourceItem<String>("title", "uid")
        #expect(explicit == DataSourceItem(uid: "uid", value: "title", index: -1))
    }

    // MARK: - T21's examples

    @Test("adding B, A and C shows A, B, C")
    func addingOutOfOrderSorts() async {
        let dataSource = ListDataSource<Item>()
        let recorder = BatchRecorder<Item>()
        dataSource.attach(recorder)
        dataSource.add([itemB, itemA, itemC])
        let rows = await dataSource.flush()
        #expect(rows.map(\.value) == ["This item is A", "This item is B", "This item is C"])
        #expect(rows.map(\.uid) == ["itemA", "itemB", "itemC"])
        #expect(dataSource.count == 3)
        #expect(recorder.batches.last?.insertions == [0, 1, 2])
    }

    @Test("a new title for C updates C in place: still three rows, one reload")
    func newTitleUpdatesInPlace() async throws {
        let (dataSource, recorder) = await listOfABC()
        let newItemC = DataSourceItem("Updated title for C", "itemC", 3.0)
        dataSource.add([newItemC])
        let rows = await dataSource.flush()
        #expect(rows.map(\.value) == ["This item is A", "This item is B", "Updated title for C"])
        #expect(dataSource.count == 3, "an update never adds a fourth row")
        let batch = try #require(recorder.batches.last)
        #expect(batch.reloads == [2])
        #expect(batch.insertions.isEmpty && batch.deletions.isEmpty && batch.moves.isEmpty)
    }

    @Test("a new index for C moves it to the top: still three rows, one move and one reload")
    func newIndexMovesToTheTop() async throws {
        let (dataSource, recorder) = await listOfABC()
        dataSource.add([DataSourceItem("Updated title for C", "itemC", 3.0)])
        _ = await dataSource.flush()
        _ = recorder.take()

        let newItemC = DataSourceItem("Updated title for C", "itemC", 0.5)
        dataSource.add([newItemC])
        let rows = await dataSource.flush()
        #expect(rows.map(\.value) == ["Updated title for C", "This item is A", "This item is B"])
        #expect(dataSource.count == 3, "an update never adds a fourth row")
        let batch = try #require(recorder.batches.last)
        #expect(batch.moves == [ListMove(from: 2, to: 0)])
        #expect(batch.reloads == [0])
        #expect(batch.insertions.isEmpty && batch.deletions.isEmpty)
    }

    @Test("removing an item that has only C's uid removes C")
    func removingByUID() async throws {
        let (dataSource, recorder) = await listOfABC()
        dataSource.remove([DataSourceItem("", "itemC")])
        var rows = await dataSource.flush()
        #expect(rows.map(\.uid) == ["itemA", "itemB"])
        #expect(recorder.take().last?.deletions == [2])

        dataSource.remove(ids: ["itemA"])
        rows = await dataSource.flush()
        #expect(rows.map(\.uid) == ["itemB"])
    }

    @Test("count, and the subscripts by position and by uid")
    func countAndSubscripts() async {
        let dataSource = ListDataSource<Item>()
        dataSource.add((0..<6).map { DataSourceItem("Row \($0)", "row\($0)", Double($0)) })
        _ = await dataSource.flush()
        let count = dataSource.count
        let item4 = dataSource[4]
        #expect(count == 6)
        #expect(item4.uid == "row4" && item4.value == "Row 4")
        #expect(dataSource[id: "row2"]?.value == "Row 2")
        #expect(dataSource[id: "row9"] == nil)
    }

    @Test("the default sorting function is the items' <; a new one re-sorts and orders later additions")
    func sortingFunction() async throws {
        let dataSource = ListDataSource<Item>(sortedBy: { $0 < $1 })
        let recorder = BatchRecorder<Item>()
        dataSource.attach(recorder)
        dataSource.add([itemB, itemA, itemC])
        var rows = await dataSource.flush()
        #expect(rows.map(\.uid) == ["itemA", "itemB", "itemC"])

        _ = recorder.take()
        dataSource.sort { $0.index > $1.index }
        rows = await dataSource.flush()
        #expect(rows.map(\.uid) == ["itemC", "itemB", "itemA"])
        let batch = try #require(recorder.take().last)
        #expect(batch.moves.count == 2, "reversing three rows moves two of them")
        #expect(batch.insertions.isEmpty && batch.deletions.isEmpty)

        dataSource.add(DataSourceItem("This item is D", "itemD", 2.5))
        rows = await dataSource.flush()
        #expect(rows.map(\.uid) == ["itemC", "itemD", "itemB", "itemA"])
    }

    // MARK: - The article

    @Test("the article's replay of the example")
    func articleReplay() async {
        let dataSource = ListDataSource<DataSourceItem<String>>()
        dataSource.add([
            DataSourceItem("This item is B", "itemB", 2.0),
            DataSourceItem("This item is A", "itemA", 1.0),
            DataSourceItem("This item is C", "itemC", 3.0),
        ])
        #expect(await dataSource.flush().map(\.uid) == ["itemA", "itemB", "itemC"])

        dataSource.add(DataSourceItem("Updated title for C", "itemC", 3.0))
        #expect(await dataSource.flush().map(\.value) == ["This item is A", "This item is B", "Updated title for C"])

        dataSource.add(DataSourceItem("Updated title for C", "itemC", 0.5))
        #expect(await dataSource.flush().map(\.uid) == ["itemC", "itemA", "itemB"])

        dataSource.remove([DataSourceItem("", "itemC")])
        #expect(await dataSource.flush().map(\.uid) == ["itemA", "itemB"])

        let rows = await dataSource.flush()
        #expect(rows.count == 2)
        #expect(dataSource[0].value == "This item is A")
    }

    @Test("the article's main-actor table shows the list's rows")
    @MainActor func articleTable() async {
        let dataSource = ListDataSource<DataSourceItem<String>>()
        let table = TitleTable()
        let token = dataSource.attach(table, on: .main)
        dataSource.add([itemB, itemA, itemC])
        dataSource.add(DataSourceItem("Updated title for C", "itemC", 0.5))
        dataSource.remove([DataSourceItem("", "itemB")])
        let rows = await dataSource.flush()
        #expect(table.rows == Array(rows))
        #expect(table.rows.map(\.value) == ["Updated title for C", "This item is A"])
        dataSource.detach(token)
    }

    @Test("the article's differences: equal items, a repeated uid, equal indices")
    func differences() async {
        let (dataSource, recorder) = await listOfABC()
        let version = dataSource.snapshot.version

        // An item equal to the stored one changes nothing and sends no batch.
        dataSource.add(DataSourceItem("This item is A", "itemA", 1.0))
        var rows = await dataSource.flush()
        #expect(rows.version == version)
        #expect(recorder.take().isEmpty)

        // A uid twice in one call: the last item wins.
        dataSource.add([DataSourceItem("first", "itemD", 4), DataSourceItem("last", "itemD", 4)])
        rows = await dataSource.flush()
        #expect(rows[id: "itemD"]?.value == "last")

        // Equal indices order by uid, whatever the order of arrival.
        dataSource.add([DataSourceItem("", "tie-b", 9), DataSourceItem("", "tie-a", 9)])
        rows = await dataSource.flush()
        #expect(rows.suffix(2).map(\.uid) == ["tie-a", "tie-b"])
    }

    @Test("the article's enum payloads")
    func articleEnumPayloads() async {
        let feed = ListDataSource<DataSourceItem<FeedEntry>>()
        feed.add([
            DataSourceItem(.header("Today"), "header", 0),
            DataSourceItem(.photo(Photo(name: "harbour", width: 640, height: 480)), "photo-1", 1),
            DataSourceItem(.counter(3), "unread", 2),
        ])

        func title(of entry: FeedEntry) -> String {
            switch entry {
            case .header(let text): text
            case .photo(let photo): "\(photo.name), \(photo.width)×\(photo.height)"
            case .counter(let count): "\(count) unread"
            }
        }

        let rows = await feed.flush()
        #expect(rows.map { title(of: $0.value) } == ["Today", "harbour, 640×480", "3 unread"])
    }

    @Test("the article's AnyPayload: Sendable, compared as AnyHashable, downcast back")
    func articleAnyPayload() async throws {
        let mixed = ListDataSource<DataSourceItem<AnyPayload>>()
        let recorder = BatchRecorder<DataSourceItem<AnyPayload>>()
        mixed.attach(recorder)
        mixed.add([
            DataSourceItem(AnyPayload("Today"), "header", 0),
            DataSourceItem(AnyPayload(Photo(name: "harbour", width: 640, height: 480)), "photo-1", 1),
        ])
        _ = await mixed.flush()
        let photo = try #require(mixed[id: "photo-1"]?.value.base as? Photo)
        #expect(photo.name == "harbour")
        #expect(mixed[id: "header"]?.value.base as? String == "Today")

        // Values of different types are unequal, so a new type is an update...
        _ = recorder.take()
        mixed.add(DataSourceItem(AnyPayload(1), "header", 0))
        _ = await mixed.flush()
        #expect(recorder.take().last?.reloads == [0])
        // ...but numbers are equal when their values are: no batch.
        mixed.add(DataSourceItem(AnyPayload(1.0), "header", 0))
        _ = await mixed.flush()
        #expect(recorder.take().isEmpty)
        #expect(mixed[id: "header"]?.value.base is Int)

        #expect(AnyPayload("a") == AnyPayload("a"))
        #expect(AnyPayload("1") != AnyPayload(1))
        #expect(Set([AnyPayload(1), AnyPayload(1.0), AnyPayload("1")]).count == 2)
    }
}
