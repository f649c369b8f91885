import Dispatch
import ListEngine
import Synchronization
import Testing

// The code of the "Getting Started" article (Sources/ListEngine/ListEngine.docc/
// GettingStarted.md), compiled and run here so that the article cannot drift from the
// library. Keep the two in step: a change to one of these declarations belongs in the
// article too.

/// A contact in an address book: the article's item type.
struct Contact: Hashable, DataSourceComparable {
    let id: String
    var name: String
    var unread: Int

    /// Alphabetical by name; equal names by id, so that no two contacts tie.
    static func < (lhs: Contact, rhs: Contact) -> Bool {
        (lhs.name, lhs.id) < (rhs.name, rhs.id)
    }
}

/// A renderer that keeps the rows it shows, guarded by a lock.
final class ContactRows: ListRenderer {
    private let state = Mutex<[Contact]>([])

    func render(_ batch: ChangeBatch<Contact>) {
        state.withLock { rows in
            for step in batch.steps {
                switch step {
                case .remove(let offset):
                    rows.remove(at: offset)
                case .insert(let contact, let offset):
                    rows.insert(contact, at: offset)
                case .move(let from, let to):
                    rows.insert(rows.remove(at: from), at: to)
                case .reload(let contact, let offset):
                    rows[offset] = contact
                }
            }
        }
    }

    /// The rows as last rendered.
    var rows: [Contact] { state.withLock { $0 } }
}

/// A renderer whose rows belong to the main actor.
@MainActor final class ContactTable: MainActorListRenderer {
    private(set) var rows: [Contact] = []

    func render(_ batch: ChangeBatch<Contact>) {
        batch.apply(to: &rows)
    }
}

/// The article's counter-example: equality by id only.
struct IDOnlyContact: Hashable, DataSourceComparable {
    let id: String
    var name: String

    static func == (lhs: IDOnlyContact, rhs: IDOnlyContact) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
    static func < (lhs: IDOnlyContact, rhs: IDOnlyContact) -> Bool {
        (lhs.name, lhs.id) < (rhs.name, rhs.id)
    }
}

@Suite struct GettingStartedExampleTests {
    @Test("the article's renderer keeps exactly the rows flush() returns, through adds, updates and removes")
    func rowsFollowTheSnapshot() async {
        let contacts = ListDataSource<Contact>([
            Contact(id: "c1", name: "Grace", unread: 0),
            Contact(id: "c2", name: "Alan", unread: 3),
            Contact(id: "c3", name: "Edsger", unread: 1),
        ])
        let screen = ContactRows()
        let token = contacts.attach(screen)

        var snapshot = await contacts.flush()
        #expect(screen.rows.map(\.name) == ["Alan", "Edsger", "Grace"])
        #expect(screen.rows == Array(snapshot))

        contacts.add(Contact(id: "c4", name: "Ada", unread: 2))     // a new id: inserted
        contacts.add(Contact(id: "c1", name: "Grace", unread: 5))   // new content, same place: reloaded
        contacts.add(Contact(id: "c2", name: "Turing", unread: 3))  // renamed: moves to its new place
        contacts.remove(ids: ["c3"])                                // removed
        snapshot = await contacts.flush()
        #expect(screen.rows.map(\.name) == ["Ada", "Grace", "Turing"])
        #expect(screen.rows == Array(snapshot))

        // Reads after flush() show what every renderer has rendered.
        #expect(contacts.count == 3)
        #expect(contacts[0].name == "Ada")
        #expect(contacts[id: "c1"]?.unread == 5)
        #expect(contacts.index(of: "c2") == 2)
        #expect(contacts.snapshot.version == snapshot.version)

        contacts.replaceAll(with: [
            Contact(id: "c1", name: "Grace", unread: 0),
            Contact(id: "c5", name: "Barbara", unread: 1),
        ])
        contacts.sort { $0.unread > $1.unread }
        contacts.add(Contact(id: "c6", name: "Donald", unread: 4))
        snapshot = await contacts.flush()
        #expect(screen.rows.map(\.id) == ["c6", "c5", "c1"])
        #expect(screen.rows == Array(snapshot))

        contacts.detach(token)
        contacts.removeAll()
        snapshot = await contacts.flush()
        #expect(snapshot.isEmpty)
        #expect(screen.rows.map(\.id) == ["c6", "c5", "c1"])  // detached: no longer updated
    }

    @Test("a renderer on the main actor keeps the same rows")
    @MainActor func mainActorRenderer() async {
        let contacts = ListDataSource<Contact>()
        let table = ContactTable()
        let token = contacts.attach(table)
        contacts.add([
            Contact(id: "c1", name: "Grace", unread: 0),
            Contact(id: "c2", name: "Alan", unread: 3),
        ])
        contacts.add(Contact(id: "c2", name: "Turing", unread: 3))
        let snapshot = await contacts.flush()
        #expect(table.rows == Array(snapshot))
        #expect(table.rows.map(\.name) == ["Grace", "Turing"])
        contacts.detach(token)
    }

    @Test("batches() starts with the attach batch, then every later batch")
    func batchStream() async {
        let contacts = ListDataSource<Contact>([Contact(id: "c1", name: "Grace", unread: 0)])
        var batches = contacts.batches().makeAsyncIterator()
        let attach = await batches.next()
        #expect(attach?.old.isEmpty == true && attach?.insertions == [0])
        contacts.add(Contact(id: "c2", name: "Alan", unread: 3))
        let next = await batches.next()
        #expect(next?.insertions == [0] && next?.new.map(\.name) == ["Alan", "Grace"])
    }

    @Test("with equality by id only, a later change to an item is a silent no-op")
    func idOnlyEqualityDropsUpdates() async {
        let people = ListDataSource<IDOnlyContact>()
        people.add(IDOnlyContact(id: "p1", name: "Ada"))
        _ = await people.flush()
        people.add(IDOnlyContact(id: "p1", name: "Ada Lovelace"))
        let snapshot = await people.flush()
        #expect(snapshot[id: "p1"]?.name == "Ada")
        #expect(snapshot.version == 1)  // no batch: nothing changed as far as `==` can tell
    }
}
