import NIOCore
import Synchronization
import WebListRenderer

/// The Server-Sent Events bytes of a hub's recent frames (`data: <json>\n\n`), made
/// once per frame and written by every event stream of that hub.
///
/// A hub encodes each batch once and hands the same `WebListFrame` to every client;
/// this turns that frame into the bytes a response writes once as well, so that *c*
/// streams write one shared `ByteBuffer` (NIO writes it without copying) instead of *c*
/// copies. In this demo each window (``LeaderboardWindow``) has its own hub, read by
/// one stream, and its own `EventBytes` with small rings.
///
/// Within one hub a frame is named by its kind and version (versions only increase).
/// The bytes of the last `batchSlots` batch versions are kept in a ring indexed by
/// version, those of the last `snapshotSlots` snapshots in a smaller ring, since each
/// holds the whole list; a frame that has left its ring (wanted by a client far behind)
/// is made again.
final class EventBytes: Sendable {
    /// Written first on every stream: reconnect after a second when the stream breaks.
    static let retry = ByteBuffer(string: "retry: 1000\n\n")
    /// What a stream writes first: ``retry``, then a `window` event that names the
    /// stream's window, `{"type":"window","id":"ID"}` (a message type the list client
    /// ignores; a client that did not name its window learns the id from it).
    ///
    /// - Parameter id: the window's id: letters, digits, `-` and `_` only.
    static func opening(window id: String) -> ByteBuffer {
        ByteBuffer(string: "retry: 1000\n\nevent: window\ndata: {\"type\":\"window\",\"id\":\"\(id)\"}\n\n")
    }

    /// A comment line for a stream that has had nothing to send for a while.
    static let heartbeat = ByteBuffer(string: ": heartbeat\n\n")

    private struct Slot {
        let version: Int
        let bytes: ByteBuffer
    }

    private struct State {
        var batches: [Slot?]
        var snapshots: [Slot?]
        var nextSnapshotSlot = 0
        var made = 0
    }

    private let state: Mutex<State>

    /// - Parameters:
    ///   - batchSlots: how many batch versions to keep, at least 1.
    ///   - snapshotSlots: how many snapshot versions to keep, at least 1.
    init(batchSlots: Int = 1_024, snapshotSlots: Int = 4) {
        precondition(batchSlots >= 1 && snapshotSlots >= 1, "EventBytes needs at least one slot of each kind")
        state = Mutex(State(batches: Array(repeating: nil, count: batchSlots), snapshots: Array(repeating: nil, count: snapshotSlots)))
    }

    /// How many frames were turned into bytes so far: once per frame, whatever the
    /// number of streams, unless a frame had left its ring.
    var made: Int { state.withLock { $0.made } }

    /// The event bytes of `frame`, made by the first stream that asks.
    ///
    /// - Complexity: O(1) when kept; otherwise O(length of the frame's JSON), under the
    ///   lock, so that each frame is made once even when streams ask at the same time.
    func bytes(for frame: WebListFrame) -> ByteBuffer {
        state.withLock { state in
            switch frame.kind {
            case .batch:
                let index = Self.index(of: frame.version, in: state.batches.count)
                if let slot = state.batches[index], slot.version == frame.version { return slot.bytes }
                let bytes = Self.make(frame, &state)
                state.batches[index] = Slot(version: frame.version, bytes: bytes)
                return bytes
            case .snapshot:
                for case let slot? in state.snapshots where slot.version == frame.version { return slot.bytes }
                let bytes = Self.make(frame, &state)
                state.snapshots[state.nextSnapshotSlot] = Slot(version: frame.version, bytes: bytes)
                state.nextSnapshotSlot = (state.nextSnapshotSlot + 1) % state.snapshots.count
                return bytes
            }
        }
    }

    private static func index(of version: Int, in count: Int) -> Int {
        let remainder = version % count
        return remainder < 0 ? remainder + count : remainder
    }

    private static func make(_ frame: WebListFrame, _ state: inout State) -> ByteBuffer {
        state.made += 1
        var bytes = ByteBuffer()
        bytes.reserveCapacity(frame.byteCount + 8)
        bytes.writeString("data: ")
        bytes.writeString(frame.json)
        bytes.writeString("\n\n")
        return bytes
    }
}
