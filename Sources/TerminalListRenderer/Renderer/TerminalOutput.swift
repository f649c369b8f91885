
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a ``TerminalListRenderer`` writes its bytes.
///
/// Each call carries one complete update (a frame or the difference to the previous
/// one), so an implementation that writes it at once never shows half an update.
public protocol TerminalOutput: AnyObject, Sendable {
    /// Writes one update.
    ///
    /// - Parameter bytes: one complete update: a whole frame or the difference to the
    ///   previous one, as terminal output (text and control sequences).
    func write(_ bytes: [UInt8])
}

/// Writes to a file descriptor, standard output by default.
public final class FileDescriptorOutput: TerminalOutput {
    /// The file descriptor written to.
    public let fileDescriptor: Int32

    /// Creates an output for `fileDescriptor` (not closed by this object).
    ///
    /// - Parameter fileDescriptor: an open descriptor; standard output by default.
    /// - Complexity: O(1).
    public init(fileDescriptor: Int32 = 1) {
        self.fileDescriptor = fileDescriptor
    }

    /// Writes all of `bytes`, retrying after interruptions and short writes. Gives up
    /// silently when the descriptor is closed: a screen cannot report its own failure.
    ///
    /// - Parameter bytes: one complete update.
    /// - Complexity: O(*n*) for *n* bytes, plus the time the descriptor takes to accept
    ///   them: the call blocks while a terminal or pipe is full, sleeping in `poll` on a
    ///   non-blocking descriptor rather than retrying in a loop.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = _write(fileDescriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    guard _waitUntilWritable(fileDescriptor) else { return }
                } else {
                    return
                }
            }
        }
    }
}

/// Sleeps until `descriptor` accepts more bytes; `false` when it never will (closed or
/// failed).
private func _waitUntilWritable(_ descriptor: Int32) -> Bool {
    var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    while true {
        let ready = poll(&request, 1, -1)
        if ready > 0 { return request.revents & Int16(POLLERR | POLLHUP | POLLNVAL) == 0 }
        if ready < 0 && errno != EINTR { return false }
    }
}

private func _write(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, pointer, count)
    #else
    Darwin.write(descriptor, pointer, count)
    #endif
}

/// Collects what is written, for tests and for driving a `VirtualScreen`.
///
/// ```swift
/// let output = OutputBuffer()
/// let renderer = TerminalListRenderer<Player>(size: .init(rows: 10, columns: 40), mode: .ansi(colors: true), output: output) { "\($0.name)" }
/// source.attach(renderer)
/// var screen = VirtualScreen(rows: 10, columns: 40)
/// screen.feed(output.take())
/// ```
public final class OutputBuffer: TerminalOutput {
    private let storage = LockedState<(bytes: [UInt8], writes: Int)>(([], 0))

    /// Creates an empty buffer.
    ///
    /// - Complexity: O(1).
    public init() {}

    /// Appends `bytes` to the buffer and counts the write.
    ///
    /// - Parameter bytes: one complete update.
    /// - Complexity: O(*n*) amortized for *n* bytes.
    public func write(_ bytes: [UInt8]) {
        storage.withLock {
            $0.bytes += bytes
            $0.writes += 1
        }
    }

    /// Everything written since the last ``take()``.
    ///
    /// - Complexity: O(1).
    public var bytes: [UInt8] { storage.withLock { $0.bytes } }

    /// How many `write` calls there have been since the last ``take()``.
    ///
    /// - Complexity: O(1).
    public var writeCount: Int { storage.withLock { $0.writes } }

    /// Returns everything written since the last call and empties the buffer.
    ///
    /// ``writeCount`` starts again from 0.
    ///
    /// - Returns: the bytes written since the last call, in order.
    /// - Complexity: O(1).
    public func take() -> [UInt8] {
        storage.withLock { state in
            defer { state = ([], 0) }
            return state.bytes
        }
    }

    /// The bytes as text (invalid UTF-8 repaired).
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
