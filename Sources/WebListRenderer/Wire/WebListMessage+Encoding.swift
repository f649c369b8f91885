extension WebListMessage {
    /// The message as compact JSON text on one line.
    ///
    /// Keys are written in a fixed order (`type` first, then the versions, then the rows,
    /// sections or steps; within a section `key`, `title`, `items`; within a step `op`
    /// first; a sectioned batch writes `"sectioned":true` before its steps), so the same
    /// message always encodes to the same bytes. Strings are escaped as JSON requires (`"`, `\` and control characters);
    /// non-ASCII text is written as UTF-8, not as `\u` escapes.
    ///
    /// ```swift
    /// WebListMessage.batch(from: 7, to: 8, steps: [.remove(at: 3)]).json
    /// // {"type":"batch","from":7,"to":8,"steps":[{"op":"remove","at":3}]}
    /// ```
    /// - Complexity: O(total length of the ids and markup it carries).
    public var json: String {
        var writer = _JSONWriter()
        switch self {
        case .snapshot(let version, let items):
            writer.reserve(32 + items.reduce(0) { $0 + $1.id.utf8.count + $1.html.utf8.count + 20 })
            writer.raw(#"{"type":"snapshot","version":"#)
            writer.integer(version)
            writer.raw(#","items":["#)
            for (index, item) in items.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.raw(#"{"id":"#)
                writer.string(item.id)
                writer.raw(#","html":"#)
                writer.string(item.html)
                writer.raw("}")
            }
            writer.raw("]}")
        case .batch(let from, let to, let steps):
            writer.reserve(48 + steps.count * 32)
            writer.raw(#"{"type":"batch","from":"#)
            writer.integer(from)
            writer.raw(#","to":"#)
            writer.integer(to)
            writer.raw(#","steps":["#)
            for (index, step) in steps.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.step(step)
            }
            writer.raw("]}")
        case .sectionedSnapshot(let version, let sections):
            writer.reserve(32 + sections.reduce(0) { total, section in
                total + section.key.utf8.count + section.title.utf8.count + 32
                    + section.items.reduce(0) { $0 + $1.id.utf8.count + $1.html.utf8.count + 20 }
            })
            writer.raw(#"{"type":"snapshot","version":"#)
            writer.integer(version)
            writer.raw(#","sections":["#)
            for (index, section) in sections.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.raw(#"{"key":"#)
                writer.string(section.key)
                writer.raw(#","title":"#)
                writer.string(section.title)
                writer.raw(#","items":["#)
                for (index, item) in section.items.enumerated() {
                    if index > 0 { writer.raw(",") }
                    writer.row(item)
                }
                writer.raw("]}")
            }
            writer.raw("]}")
        case .sectionedBatch(let from, let to, let steps):
            writer.reserve(64 + steps.count * 40)
            writer.raw(#"{"type":"batch","from":"#)
            writer.integer(from)
            writer.raw(#","to":"#)
            writer.integer(to)
            writer.raw(#","sectioned":true,"steps":["#)
            for (index, step) in steps.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.step(step)
            }
            writer.raw("]}")
        }
        return writer.text
    }
}

/// Appends compact JSON to a byte buffer.
struct _JSONWriter {
    private var bytes: [UInt8] = []

    mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A JSON string literal: quotes, and escapes for `"`, `\` and U+0000…U+001F.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00 ..< 0x20:
                let low = byte & 0xF
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(UInt8(ascii: "0") + (byte >> 4))
                bytes.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A step that carries a row: `{"op":…,"at":…,"id":…,"html":…}`.
    private mutating func rowStep(_ op: StaticString, _ row: WebListRow, at offset: Int) {
        stepStart(op)
        integer(offset)
        raw(",")
        rowMembers(row)
        raw("}")
    }

    /// The start of a step up to its place: `{"op":…,"at":`.
    private mutating func stepStart(_ op: StaticString) {
        raw(#"{"op":""#)
        raw(op)
        raw(#"","at":"#)
    }

    /// A row object: `{"id":…,"html":…}`.
    mutating func row(_ row: WebListRow) {
        raw("{")
        rowMembers(row)
        raw("}")
    }

    /// A row's members: `"id":…,"html":…`.
    private mutating func rowMembers(_ row: WebListRow) {
        raw(#""id":"#)
        string(row.id)
        raw(#","html":"#)
        string(row.html)
    }

    /// An index path: `[section,item]`.
    mutating func indexPath(_ path: ListIndexPath) {
        raw("[")
        integer(path.section)
        raw(",")
        integer(path.item)
        raw("]")
    }

    /// A sectioned step that carries a row: `{"op":…,"at":[s,i],"id":…,"html":…}`.
    private mutating func rowStep(_ op: StaticString, _ row: WebListRow, at path: ListIndexPath) {
        stepStart(op)
        indexPath(path)
        raw(",")
        rowMembers(row)
        raw("}")
    }

    mutating func step(_ step: WebListSectionedStep) {
        switch step {
        case .insertSection(let key, let title, let at):
            raw(#"{"op":"insertSection","at":"#)
            integer(at)
            raw(#","key":"#)
            string(key)
            raw(#","title":"#)
            string(title)
            raw("}")
        case .removeSection(let at):
            raw(#"{"op":"removeSection","at":"#)
            integer(at)
            raw("}")
        case .remove(let at):
            raw(#"{"op":"remove","at":"#)
            indexPath(at)
            raw("}")
        case .insert(let row, let at):
            rowStep("insert", row, at: at)
        case .move(let from, let to):
            raw(#"{"op":"move","from":"#)
            indexPath(from)
            raw(#","to":"#)
            indexPath(to)
            raw("}")
        case .reload(let row, let at):
            rowStep("reload", row, at: at)
        }
    }

    mutating func step(_ step: WebListStep) {
        switch step {
        case .remove(let at):
            raw(#"{"op":"remove","at":"#)
            integer(at)
            raw("}")
        case .insert(let row, let at):
            rowStep("insert", row, at: at)
        case .move(let from, let to):
            raw(#"{"op":"move","from":"#)
            integer(from)
            raw(#","to":"#)
            integer(to)
            raw("}")
        case .reload(let row, let at):
            rowStep("reload", row, at: at)
        }
    }
}
