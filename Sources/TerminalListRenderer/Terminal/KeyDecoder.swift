/// A key press read from a terminal in raw mode.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    /// A printable character (including non-ASCII ones).
    case character(Character)
    /// Ctrl plus a letter, as the lowercase letter: Ctrl-C is `.control("c")`.
    case control(Character)
    /// An arrow key.
    case up, down, left, right
    /// A navigation key.
    case pageUp, pageDown, home, end
    /// An editing key; `escape` is a lone ESC with nothing after it in the same read.
    case enter, tab, backspace, delete, escape

    /// The key as it is written on a keyboard: `"q"`, `Ctrl-C`, `↑`, `PgDn`.
    ///
    /// - Complexity: O(1).
    public var description: String {
        switch self {
        case .character(let character): "\"\(character)\""
        case .control(let letter): "Ctrl-\(letter.uppercased())"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .tab: "Tab"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .escape: "Esc"
        }
    }
}

/// Turns the bytes a terminal sends into ``Key``s: a value-type state machine.
///
/// Feed bytes one at a time with ``feed(_:)``; each returns the keys it completes
/// (usually none or one). At the end of each read call ``endOfInput()``: a lone ESC
/// with nothing after it in the same read is the Escape key, not the start of a
/// sequence. Any other sequence or character that a read leaves incomplete is
/// completed by the next read, so a key whose bytes arrive in two reads (a slow
/// connection) is still one key.
///
/// Understood: printable UTF-8, Enter (CR or LF), Tab, Backspace (DEL or BS), Ctrl-A…Z,
/// the arrow keys, Home, End, PgUp, PgDn and Delete in both CSI (`ESC [ A`, `ESC [ 5 ~`,
/// with or without modifier parameters) and SS3 (`ESC O A`) forms. Other sequences
/// are consumed and ignored.
///
/// ```swift
/// var decoder = KeyDecoder()
/// let keys = decoder.keys(in: [0x1B, 0x5B, 0x42, 0x71])   // [.down, .character("q")]
/// ```
public struct KeyDecoder: Sendable {
    private enum State: Sendable {
        case ground
        case escape
        case controlSequence(parameters: [UInt8])
        case singleShift
        case utf8(bytes: [UInt8], remaining: Int)
    }

    private var state = State.ground

    /// Creates a decoder that expects the start of a key.
    ///
    /// - Complexity: O(1).
    public init() {}

    /// Consumes one byte; returns the keys it completes.
    ///
    /// - Parameter byte: the next byte the terminal sent.
    /// - Returns: the keys the byte completes, usually none or one; an empty array while
    ///   a sequence or a multi-byte character is incomplete.
    /// - Complexity: O(1), except inside a control sequence: O(*p*) for *p* parameter
    ///   bytes read so far.
    public mutating func feed(_ byte: UInt8) -> [Key] {
        switch state {
        case .ground:
            return _ground(byte)
        case .escape:
            switch byte {
            case 0x5B:
                state = .controlSequence(parameters: [])
                return []
            case 0x4F:
                state = .singleShift
                return []
            case 0x1B:
                return [.escape]
            default:
                // Alt plus a key: report the key.
                state = .ground
                return _ground(byte)
            }
        case .controlSequence(var parameters):
            switch byte {
            case 0x20...0x3F:
                // Keys need a few parameter bytes; more are read but not kept.
                if parameters.count < Self._maximumParameterBytes { parameters.append(byte) }
                state = .controlSequence(parameters: parameters)
                return []
            case 0x40...0x7E:
                state = .ground
                return Self._csiKey(final: byte, parameters: parameters).map { [$0] } ?? []
            default:
                // Not part of a sequence (Enter, ESC, …): the sequence was cut short, and
                // the byte is a key of its own.
                return flushIncomplete() + _ground(byte)
            }
        case .singleShift:
            guard (0x40...0x7E).contains(byte) else { return flushIncomplete() + _ground(byte) }
            state = .ground
            return Self._csiKey(final: byte, parameters: []).map { [$0] } ?? []
        case .utf8(var bytes, let remaining):
            guard byte & 0xC0 == 0x80 else {
                state = .ground
                return _ground(byte)
            }
            bytes.append(byte)
            guard remaining == 1 else {
                state = .utf8(bytes: bytes, remaining: remaining - 1)
                return []
            }
            state = .ground
            let text = String(decoding: bytes, as: UTF8.self)
            return text.first.map { [.character($0)] } ?? []
        }
    }

    /// Ends a read: a pending lone ESC becomes the Escape key. A partial control
    /// sequence or character is kept for the next read to complete.
    ///
    /// - Returns: `[.escape]` after a lone ESC, otherwise an empty array.
    /// - Complexity: O(1).
    public mutating func endOfInput() -> [Key] {
        guard case .escape = state else { return [] }
        state = .ground
        return [.escape]
    }

    /// Whether a control sequence or a multi-byte character has begun and not ended:
    /// the next read should complete it. A reader that gets no more bytes for a while
    /// calls ``flushIncomplete()``.
    ///
    /// - Complexity: O(1).
    public var isAwaitingMoreInput: Bool {
        if case .ground = state { return false }
        return true
    }

    /// Gives up on an incomplete key that no more bytes followed (say 50 ms after the
    /// last read): `ESC [` or `ESC O` alone was Alt plus that key, reported as the key
    /// like any other Alt combination; a partial control sequence or character is
    /// dropped.
    ///
    /// - Returns: the key the pending bytes stand for, if any.
    /// - Complexity: O(1).
    public mutating func flushIncomplete() -> [Key] {
        defer { state = .ground }
        switch state {
        case .escape: return [.escape]
        case .controlSequence(let parameters) where parameters.isEmpty: return [.character("[")]
        case .singleShift: return [.character("O")]
        default: return []
        }
    }

    /// All keys in one read: `feed` for each byte, then ``endOfInput()``.
    ///
    /// - Parameter bytes: everything one read returned.
    /// - Returns: the keys, in the order they were typed.
    /// - Complexity: O(*n*) for *n* bytes, with control sequences of a few parameter
    ///   bytes each, as terminals send them.
    public mutating func keys(in bytes: some Sequence<UInt8>) -> [Key] {
        var keys: [Key] = []
        for byte in bytes { keys += feed(byte) }
        return keys + endOfInput()
    }

    private mutating func _ground(_ byte: UInt8) -> [Key] {
        switch byte {
        case 0x1B:
            state = .escape
            return []
        case 0x0D, 0x0A: return [.enter]
        case 0x09: return [.tab]
        case 0x7F, 0x08: return [.backspace]
        case 0x01...0x1A: return [.control(Character(Unicode.Scalar(byte + 0x60)))]
        case 0x20...0x7E: return [.character(Character(Unicode.Scalar(byte)))]
        case 0xC2...0xDF:
            state = .utf8(bytes: [byte], remaining: 1)
            return []
        case 0xE0...0xEF:
            state = .utf8(bytes: [byte], remaining: 2)
            return []
        case 0xF0...0xF4:
            state = .utf8(bytes: [byte], remaining: 3)
            return []
        default:
            return []
        }
    }

    /// The parameter bytes of a control sequence that are kept.
    private static let _maximumParameterBytes = 16

    private static func _csiKey(final: UInt8, parameters: [UInt8]) -> Key? {
        switch final {
        case 0x41: return .up
        case 0x42: return .down
        case 0x43: return .right
        case 0x44: return .left
        case 0x48: return .home
        case 0x46: return .end
        case 0x7E:
            // Saturating: a long number is no key, and no overflow either.
            let number = parameters.prefix { $0 != 0x3B }.reduce(0) { Swift.min($0 &* 10 &+ Int($1 &- 0x30), 1 << 20) }
            switch number {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            default: return nil
            }
        default:
            return nil
        }
    }
}
