import TerminalListRenderer

extension VirtualScreen {
    /// Interprets bytes written to the terminal.
    ///
    /// Feed whole writes: a printable run is split into grapheme clusters when a control
    /// byte, an escape sequence or the end of the call ends it.
    /// - Parameter bytes: one write, as the terminal would receive it.
    /// - Complexity: O(*n*) for *n* bytes.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { _consume(byte) }
        _flushText()
        _checkInvariants()
    }

    /// Interprets text written to the terminal (its UTF-8 bytes).
    ///
    /// - Parameter text: one write, as text.
    /// - Complexity: O(*n*) for *n* UTF-8 bytes.
    public mutating func feed(_ text: String) {
        feed(Array(text.utf8))
    }

    mutating func _consume(_ byte: UInt8) {
        switch _parser.state {
        case .ground:
            switch byte {
            case 0x1B:
                _flushText()
                _parser.state = .escape
            case 0x0A:
                // A terminal behind a tty with output processing: LF returns the carriage too.
                _flushText()
                cursor.column = 0
                _lineFeed()
            case 0x0D:
                _flushText()
                cursor.column = 0
            case 0x00..<0x20, 0x7F:
                _flushText()
                anomalies.append("control byte 0x\(String(byte, radix: 16))")
            default:
                _parser.text.append(byte)
            }
        case .escape:
            if byte == 0x5B {
                _parser.state = .controlSequence(isPrivate: false, parameters: [])
            } else {
                anomalies.append("escape followed by 0x\(String(byte, radix: 16))")
                _parser.state = .ground
            }
        case .controlSequence(let isPrivate, var parameters):
            switch byte {
            case 0x3F where parameters.isEmpty && !isPrivate:
                _parser.state = .controlSequence(isPrivate: true, parameters: [])
            case 0x30...0x3B:
                parameters.append(byte)
                _parser.state = .controlSequence(isPrivate: isPrivate, parameters: parameters)
            case 0x40...0x7E:
                _parser.state = .ground
                _dispatch(final: byte, isPrivate: isPrivate, parameters: _Parser.numbers(parameters))
            default:
                anomalies.append("byte 0x\(String(byte, radix: 16)) inside a control sequence")
                _parser.state = .ground
            }
        }
    }

    mutating func _flushText() {
        guard !_parser.text.isEmpty else { return }
        let text = String(decoding: _parser.text, as: UTF8.self)
        _parser.text.removeAll(keepingCapacity: true)
        for character in text { _put(character) }
    }

    mutating func _dispatch(final: UInt8, isPrivate: Bool, parameters: [Int?]) {
        let first = parameters.first ?? nil
        let name = "CSI \(isPrivate ? "?" : "")\(parameters.map { $0.map(String.init) ?? "" }.joined(separator: ";"))\(Character(Unicode.Scalar(final)))"
        if isPrivate {
            guard final == 0x68 || final == 0x6C else {
                anomalies.append(name)
                return
            }
            for parameter in parameters {
                guard let parameter else { continue }
                _setPrivateMode(parameter, on: final == 0x68)
            }
            return
        }
        switch final {
        case 0x48, 0x66:  // H, f
            let row = parameters.count > 0 ? parameters[0] ?? 1 : 1
            let column = parameters.count > 1 ? parameters[1] ?? 1 : 1
            _moveCursor(row: row - 1, column: column - 1)
        case 0x4B:  // K
            switch first ?? 0 {
            case 0: _eraseLine(from: cursor.column, to: columns)
            case 1: _eraseLine(from: 0, to: cursor.column + 1)
            case 2: _eraseLine(from: 0, to: columns)
            default: anomalies.append(name)
            }
        case 0x4A:  // J
            _eraseDisplay(first ?? 0)
        case 0x6D:  // m
            _setGraphicRendition(parameters.map { $0 ?? 0 })
        case 0x72:  // r
            let top = parameters.count > 0 ? parameters[0] ?? 1 : 1
            let bottom = parameters.count > 1 ? parameters[1] ?? rows : rows
            _setScrollRegion(top: top, bottom: bottom)
        case 0x53:  // S
            _scroll(by: max(1, first ?? 1))
        case 0x54:  // T
            _scroll(by: -max(1, first ?? 1))
        default:
            anomalies.append(name)
        }
    }
}

/// The byte-level state of a ``VirtualScreen``'s escape sequence parser.
struct _Parser: Sendable {
    enum State: Sendable {
        case ground
        case escape
        case controlSequence(isPrivate: Bool, parameters: [UInt8])
    }

    var state = State.ground
    /// Bytes of the printable run being collected.
    var text: [UInt8] = []

    /// "12;;3" as [12, nil, 3].
    static func numbers(_ bytes: [UInt8]) -> [Int?] {
        guard !bytes.isEmpty else { return [] }
        return bytes.split(separator: 0x3B, omittingEmptySubsequences: false).map { digits in
            guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return digits.reduce(0) { min($0 * 10 + Int($1 - 0x30), 1 << 20) }
        }
    }
}
