import Foundation

/// One step of a path into a JSON document.
enum _JSONPathComponent: Hashable, Sendable {
    case key(String)
    case index(Int)

    /// Converts a decoder's coding key. `JSONDecoder` names array elements with keys
    /// whose `intValue` is the index and whose `stringValue` is "Index *n*".
    init(_ key: any CodingKey) {
        if let index = key.intValue, key.stringValue == "Index \(index)" {
            self = .index(index)
        } else {
            self = .key(key.stringValue)
        }
    }
}

extension [_JSONPathComponent] {
    /// `data[3].score`; empty for the top level.
    var rendered: String {
        var text = ""
        for component in self {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

/// A strict RFC 8259 scanner that reports where a document breaks, or where a path leads.
///
/// It does not build values; it walks the bytes once, tracking the path to the value
/// being read, and validates UTF-8 inside strings.
struct _JSONScanner {
    struct SyntaxError: Error {
        var offset: Int
        var path: [_JSONPathComponent]
        var reason: String
    }

    /// Turns a key of the document into the key a decoder's coding path names, given the
    /// path of the object that holds it (as ``JSONDecoder/KeyDecodingStrategy`` does).
    typealias KeyConversion = (_ key: String, _ objectPath: [_JSONPathComponent]) -> String

    /// Where a path led: the offset of the value, and the path there with the keys as
    /// the document spells them.
    struct Location {
        var offset: Int
        var documentPath: [_JSONPathComponent]
    }

    private let bytes: [UInt8]
    private var offset = 0
    /// The path to the value being read, with keys converted for matching the target.
    private var path: [_JSONPathComponent] = []
    /// The same path with the keys as the document spells them.
    private var documentPath: [_JSONPathComponent] = []
    private let target: [_JSONPathComponent]?
    private let convertKey: KeyConversion?
    private let matching: KeyMatching
    private var found: Location?
    /// The numbers read so far, when collecting them.
    private var numbers: [Number]?
    private static let maximumDepth = 512

    /// How the keys of a coding path are compared with the document's.
    enum KeyMatching {
        /// With the key as the document spells it.
        case asWritten
        /// With the key after the decoder's conversion.
        case converted
        /// With either.
        case either
    }

    private init(bytes: [UInt8], target: [_JSONPathComponent]?, convertKey: KeyConversion? = nil, matching: KeyMatching = .asWritten) {
        self.bytes = bytes
        self.target = target
        self.convertKey = convertKey
        self.matching = matching
    }

    /// The first syntax error in `bytes`, or `nil` if they are one valid JSON document.
    static func firstSyntaxError(in bytes: [UInt8]) -> SyntaxError? {
        var scanner = _JSONScanner(bytes: bytes, target: nil)
        do {
            try scanner.document()
            return nil
        } catch {
            return error
        }
    }

    /// A number token of a document.
    struct Number {
        /// Where the token starts and ends.
        var bytes: Range<Int>
        /// The path to it, with the keys as the document spells them.
        var path: [_JSONPathComponent]
    }

    /// The number tokens of a valid document, in document order (empty for an invalid one).
    static func numbers(in bytes: [UInt8]) -> [Number] {
        var scanner = _JSONScanner(bytes: bytes, target: nil)
        scanner.numbers = []
        do {
            try scanner.document()
        } catch {
            return []
        }
        return scanner.numbers ?? []
    }

    /// Where the value at `path` is, or `nil` if there is none.
    ///
    /// - Parameters:
    ///   - path: a decoder's coding path: keys after `convertKey`, escapes resolved.
    ///   - convertKey: how the decoder converts the document's keys; `nil` for none.
    ///
    /// Keys are first compared as written, which is right for every key a decoder
    /// leaves alone: all of them without a conversion, and a dictionary's. Then, with a
    /// conversion, as converted (a struct's keys), and last either way (a dictionary
    /// inside a struct). The conversion is applied only to the keys of objects on the
    /// way to `path`, as a decoder would.
    static func location(ofValueAt path: [_JSONPathComponent], in bytes: [UInt8], convertKey: KeyConversion? = nil) -> Location? {
        func search(_ matching: KeyMatching) -> Location? {
            var scanner = _JSONScanner(bytes: bytes, target: path, convertKey: convertKey, matching: matching)
            do {
                try scanner.document()
            } catch {
                // A broken document still tells where the path led, if it got that far.
            }
            return scanner.found
        }
        if let found = search(.asWritten) { return found }
        guard convertKey != nil else { return nil }
        return search(.converted) ?? search(.either)
    }

    // MARK: Grammar

    private mutating func document() throws(SyntaxError) {
        // A UTF-8 byte order mark may start the document, as JSONDecoder allows.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        skipWhitespace()
        try value(depth: 0)
        skipWhitespace()
        if offset < bytes.count { throw error("unexpected \(describe(bytes[offset])) after the end of the document") }
    }

    private mutating func value(depth: Int) throws(SyntaxError) {
        if found == nil, let target, isAt(target) { found = Location(offset: offset, documentPath: documentPath) }
        guard offset < bytes.count else { throw error("unexpected end of data, expected a value") }
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): try object(depth: depth)
        case UInt8(ascii: "["): try array(depth: depth)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case let byte: throw error("unexpected \(describe(byte)), expected a value")
        }
    }

    /// Whether the value being read is at `target`.
    private func isAt(_ target: [_JSONPathComponent]) -> Bool {
        target.count == path.count && _matchesTarget(upTo: path.count)
    }

    /// Whether the first `count` steps of the current path match the target's.
    private func _matchesTarget(upTo count: Int) -> Bool {
        guard let target, count <= target.count else { return false }
        return (0..<count).allSatisfy { level in
            switch matching {
            case .asWritten: target[level] == documentPath[level]
            case .converted: target[level] == path[level]
            case .either: target[level] == path[level] || target[level] == documentPath[level]
            }
        }
    }

    private mutating func object(depth: Int) throws(SyntaxError) {
        offset += 1  // {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { offset += 1; return }
        while true {
            guard offset < bytes.count else { throw error("unexpected end of data, expected a key") }
            guard bytes[offset] == UInt8(ascii: "\"") else { throw error("unexpected \(describe(bytes[offset])), expected a key") }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after the key")
            skipWhitespace()
            // Converted only inside an object on the way to the target, as a decoder would.
            let isOnTheWay = matching != .asWritten && convertKey != nil && _matchesTarget(upTo: path.count)
            path.append(.key(isOnTheWay ? convertKey.map { $0(key, path) } ?? key : key))
            documentPath.append(.key(key))
            try value(depth: depth + 1)
            path.removeLast()
            documentPath.removeLast()
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of data, expected ',' or '}'") }
            switch bytes[offset] {
            case UInt8(ascii: ","): offset += 1; skipWhitespace()
            case UInt8(ascii: "}"): offset += 1; return
            case let byte: throw error("unexpected \(describe(byte)), expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) {
        offset += 1  // [
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { offset += 1; return }
        var index = 0
        while true {
            path.append(.index(index))
            documentPath.append(.index(index))
            try value(depth: depth + 1)
            path.removeLast()
            documentPath.removeLast()
            index += 1
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of data, expected ',' or ']'") }
            switch bytes[offset] {
            case UInt8(ascii: ","): offset += 1; skipWhitespace()
            case UInt8(ascii: "]"): offset += 1; return
            case let byte: throw error("unexpected \(describe(byte)), expected ',' or ']'")
            }
        }
    }

    /// Reads a string starting at its opening quote; returns its text with escapes
    /// resolved (for keys).
    private mutating func string() throws(SyntaxError) -> String {
        let quote = offset
        offset += 1  // "
        let start = offset
        var isEscaped = false
        while true {
            guard offset < bytes.count else { throw error("unexpected end of data inside a string") }
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                guard isEscaped else { return String(decoding: bytes[start..<offset - 1], as: UTF8.self) }
                // Rare (an escaped key): the string is valid, so a decoder resolves it.
                let literal = Data(bytes[quote..<offset])
                return (try? JSONDecoder().decode(String.self, from: literal)) ?? String(decoding: bytes[start..<offset - 1], as: UTF8.self)
            case UInt8(ascii: "\\"):
                isEscaped = true
                try escape()
            case 0..<0x20:
                throw error("unescaped control character \(describe(byte)) inside a string")
            case 0x80...:
                try utf8Sequence()
            default:
                offset += 1
            }
        }
    }

    private mutating func escape() throws(SyntaxError) {
        let start = offset
        offset += 1  // backslash
        guard offset < bytes.count else { throw error("unexpected end of data inside an escape") }
        switch bytes[offset] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            offset += 1
        case UInt8(ascii: "u"):
            offset += 1
            let unit = try hexQuad()
            // UTF-16 surrogates only come in pairs, a high one escaped right before a low
            // one; JSONDecoder rejects any other use.
            switch unit {
            case 0xD800...0xDBFF:
                let pairStart = offset
                guard peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate \\u\(Self.hex16(unit)) in a string", at: start)
                }
                offset += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("\\u\(Self.hex16(low)) cannot follow the surrogate \\u\(Self.hex16(unit))", at: pairStart)
                }
            case 0xDC00...0xDFFF:
                throw error("unpaired surrogate \\u\(Self.hex16(unit)) in a string", at: start)
            default:
                break
            }
        case let byte:
            throw error("invalid escape \\\(describe(byte))")
        }
    }

    /// Reads the four hex digits of a `\u` escape.
    private mutating func hexQuad() throws(SyntaxError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard offset < bytes.count else { throw error("unexpected end of data inside a \\u escape") }
            guard let digit = Self.hexValue(bytes[offset]) else { throw error("\(describe(bytes[offset])) is not a hex digit in a \\u escape") }
            unit = unit << 4 | UInt16(digit)
            offset += 1
        }
        return unit
    }

    /// Validates one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates).
    private mutating func utf8Sequence() throws(SyntaxError) {
        let lead = bytes[offset]
        let length: Int, secondRange: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: length = 2; secondRange = 0x80...0xBF
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; secondRange = 0x80...0xBF
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4; secondRange = 0x80...0xBF
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw error("invalid UTF-8 byte \(Self.hex(lead))")
        }
        for position in 1..<length {
            let at = offset + position
            guard at < bytes.count else { throw error("unexpected end of data inside a UTF-8 sequence") }
            let range = position == 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[at]) else {
                throw error("invalid UTF-8 sequence \(bytes[offset...at].map(Self.hex).joined(separator: " "))")
            }
        }
        offset += length
    }

    private mutating func number() throws(SyntaxError) {
        let start = offset
        defer { numbers?.append(Number(bytes: start..<offset, path: documentPath)) }
        if peek() == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek(), Self.isDigit(first) else { throw error("expected a digit in a number", at: offset) }
        offset += 1
        if first != UInt8(ascii: "0") { while let byte = peek(), Self.isDigit(byte) { offset += 1 } }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard let byte = peek(), Self.isDigit(byte) else { throw error("expected a digit after '.' in a number") }
            while let byte = peek(), Self.isDigit(byte) { offset += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard let byte = peek(), Self.isDigit(byte) else { throw error("expected a digit in the exponent of a number") }
            while let byte = peek(), Self.isDigit(byte) { offset += 1 }
        }
    }

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in text {
            guard offset < bytes.count else { throw error("unexpected end of data inside \(word)") }
            guard bytes[offset] == expected else { throw error("unexpected \(describe(bytes[offset])) inside \(word)") }
            offset += 1
        }
    }

    // MARK: Helpers

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): offset += 1
            default: return
            }
        }
    }

    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
        guard offset < bytes.count else { throw error("unexpected end of data, expected \(what)") }
        guard bytes[offset] == byte else { throw error("unexpected \(describe(bytes[offset])), expected \(what)") }
        offset += 1
    }

    private func error(_ reason: String, at position: Int? = nil) -> SyntaxError {
        SyntaxError(offset: position ?? offset, path: documentPath, reason: reason)
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(Self.hex(byte))"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func hex16(_ unit: UInt16) -> String {
        String(hex(UInt8(unit >> 8)).dropFirst(2) + hex(UInt8(unit & 0xFF)).dropFirst(2))
    }
}
