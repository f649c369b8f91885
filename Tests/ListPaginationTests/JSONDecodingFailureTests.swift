import Foundation
import ListPagination
import ListTestSupport
import Testing

@Suite struct JSONDecodingFailureTests {
    struct Row: Decodable { var id: String; var score: Int }
    struct Envelope: Decodable { var data: [Row]; var pagination: Pagination }
    struct Pagination: Decodable { var page: Int }

    static func failure(_ json: String) -> JSONDecodingFailure? {
        failure(Data(json.utf8))
    }

    static func failure(_ data: Data) -> JSONDecodingFailure? {
        do {
            _ = try JSONDecodingFailure.decode(Envelope.self, from: data)
            return nil
        } catch {
            return error
        }
    }

    /// `JSONDecoder` reads UTF-16 and UTF-32 documents too; their errors are located as
    /// in the UTF-8 form, not reported as a syntax error at the first zero byte.
    @Test(arguments: [
        String.Encoding.utf8, .utf16LittleEndian, .utf16BigEndian, .utf16, .utf32LittleEndian, .utf32BigEndian,
    ])
    func documentsInAnyUnicodeFormAreLocatedAsInUTF8(encoding: String.Encoding) throws {
        func encoded(_ text: String) throws -> Data { try #require(text.data(using: encoding)) }
        let valid = #"{"data":[{"id":"a","score":1}],"pagination":{"page":1}}"#
        _ = try JSONDecoder().decode(Envelope.self, from: try encoded(valid))
        let wrongType = #"{"data":[{"id":"a","score":1},{"id":"b","score":"x"}],"pagination":{"page":1}}"#
        let failure = try #require(Self.failure(try encoded(wrongType)))
        #expect(failure.path == "data[1].score", "\(failure)")
        #expect(failure.byteOffset == Self.failure(wrongType)?.byteOffset, "\(failure)")
        let tooLarge = #"{"data":[{"id":"a","score":1e30}],"pagination":{"page":1}}"#
        let number = try #require(Self.failure(try encoded(tooLarge)))
        #expect(number.path == "data[0].score", "\(number)")
        let broken = #"{"data":[{"id":"a","score":1},]}"#
        let syntax = try #require(Self.failure(try encoded(broken)))
        #expect(syntax.position == Self.failure(broken)?.position, "\(syntax)")
    }

    @Test func aTypeMismatchNamesThePathAndLine() throws {
        let json = """
        {"data":[
        {"id":"a","score":1},
        {"id":"b","score":"2"}
        ],"pagination":{"page":1}}
        """
        let failure = try #require(Self.failure(json))
        #expect(failure.path == "data[1].score")
        #expect(failure.line == 3)
        #expect(failure.column == 19)
        #expect(failure.byteOffset == 50)
        #expect(failure.description.hasPrefix("data[1].score, line 3, column 19"))
    }

    @Test func aMissingKeyNamesTheKeyAndItsContainer() throws {
        let failure = try #require(Self.failure(#"{"data":[{"id":"a"}],"pagination":{"page":1}}"#))
        #expect(failure.path == "data[0].score")
        #expect(failure.byteOffset == 9)
        #expect(failure.reason.contains("score"))
    }

    @Test func aTruncatedDocumentNamesWhereItEnds() throws {
        let json = #"{"data":[{"id":"a","score":1},{"id":"b"#
        let failure = try #require(Self.failure(json))
        #expect(failure.path == "data[1].id")
        #expect(failure.byteOffset == json.utf8.count)
        #expect(failure.reason.contains("end of data"))
    }

    @Test func invalidUTF8IsFoundInsideItsString() throws {
        var bytes = Array(#"{"data":[{"id":"#.utf8) + [UInt8(ascii: "\"")]
        let badOffset = bytes.count + 1
        bytes += [UInt8(ascii: "x"), 0xC3, 0x28, UInt8(ascii: "\""), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "}")]
        let failure = try #require(Self.failure(Data(bytes)))
        #expect(failure.path == "data[0].id")
        #expect(failure.byteOffset == badOffset)
        #expect(failure.reason.contains("0xC3 0x28"))
    }

    @Test func anEmptyDocumentFailsAtTheTopLevel() throws {
        let failure = try #require(Self.failure(""))
        #expect(failure.path == "")
        #expect(failure.byteOffset == 0)
        #expect(failure.line == 1 && failure.column == 1)
        #expect(failure.description.hasPrefix("top level, line 1, column 1 (byte 0)"))
    }

    @Test func theWrongTopLevelTypeIsReportedAtByteZero() throws {
        let failure = try #require(Self.failure(#"  [1, 2]"#))
        #expect(failure.path == "")
        #expect(failure.byteOffset == 2)
    }

    @Test func trailingGarbageIsASyntaxError() throws {
        let failure = try #require(Self.failure(#"{"data":[],"pagination":{"page":1}} x"#))
        #expect(failure.byteOffset == 36)
        #expect(failure.reason.contains("after the end"))
    }

    @Test func validDocumentsDecode() throws {
        #expect(Self.failure(#"{"data":[{"id":"\u00e9\"","score":-100}],"pagination":{"page":1}}"#) == nil)
        #expect(Self.failure(#"{"data":[{"id":"é","score":7}],"pagination":{"page":1}}"#) == nil)
    }

    @Test(arguments: [
        (#"{"data":[{"id":"a","score":1},{"id":"b","score":1.5}],"pagination":{"page":1}}"#, "data[1].score", 48),
        (#"{"data":[{"id":"b","score":99999999999999999999}],"pagination":{"page":1}}"#, "data[0].score", 27),
        (#"{"data":[{"id":"b","score":2}],"pagination":{"page":1e400}}"#, "pagination.page", 52),
        (#"{"data":[{"id":"a","score":1.0e0},{"id":"b","score":7.25}],"pagination":{"page":3.5}}"#, "data[1].score", 52),
    ])
    func aNumberThatDoesNotFitItsTypeIsLocated(json: String, path: String, offset: Int) throws {
        // Whether the decoder names the path itself or not, the number is found.
        let failure = try #require(Self.failure(json))
        #expect(failure.path == path, "\(failure)")
        #expect(failure.byteOffset == offset, "\(failure)")
    }

    @Test func withoutTheDecoderAWholeDocumentComplaintClaimsNoPosition() throws {
        let data = Data(#"{"data":[{"id":"b","score":1.5}],"pagination":{"page":1}}"#.utf8)
        let error = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON."))
        let failure = JSONDecodingFailure(error, in: data)
        #expect(failure.byteOffset == nil && failure.path.isEmpty)
        #expect(failure.reason.contains("valid JSON"))
    }

    struct Level: Decodable {
        enum Tier: Int, Decodable { case one = 1, two = 2 }
        var tier: Tier
        var ratio: Int
    }

    @Test func aZeroThatMisleadsTheSearchGivesNoPositionRatherThanAWrongOne() throws {
        // Zeroing `tier` makes another error (there is no tier 0).
        let found = try #require(Self.failing { try JSONDecodingFailure.decode(Level.self, from: Data(#"{"tier":2,"ratio":0.5}"#.utf8)) })
        #expect(found.path == "ratio" && found.byteOffset == 18, "\(found)")
        // Here the zeroed tier decides the search (it is decoded first): no position
        // rather than the tier's.
        let misled = try #require(Self.failing { try JSONDecodingFailure.decode(Level.self, from: Data(#"{"ratio":0.5,"tier":2}"#.utf8)) })
        #expect(misled.byteOffset == nil || misled.path == "ratio", "\(misled)")
        #expect(misled.path != "tier", "\(misled)")
    }

    /// A type that checks itself and throws `dataCorrupted` at the top level.
    struct Window: Decodable {
        var lo: Int
        var hi: Int
        enum CodingKeys: String, CodingKey { case lo, hi }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            lo = try container.decode(Int.self, forKey: .lo)
            hi = try container.decode(Int.self, forKey: .hi)
            guard lo <= hi else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "lo must not exceed hi"))
            }
        }
    }

    enum Mode: String, Decodable { case fast, slow }

    @Test func aTypesOwnTopLevelErrorIsReportedAsItIs() throws {
        let window = try #require(Self.failing { try JSONDecodingFailure.decode(Window.self, from: Data(#"{"lo":5,"hi":3}"#.utf8)) })
        #expect(window.reason == "lo must not exceed hi" && window.path.isEmpty && window.byteOffset == 0, "\(window)")
        let mode = try #require(Self.failing { try JSONDecodingFailure.decode(Mode.self, from: Data(#""turbo""#.utf8)) })
        #expect(mode.byteOffset == 0 && !mode.reason.contains("does not fit"), "\(mode)")
    }

    @Test func aDictionaryKeyAsWrittenWinsOverAnotherThatConvertsToIt() throws {
        let json = #"{"player_1":{"id":"a","score":1},"player1":{"id":"b","score":"x"}}"#
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let failure = try #require(Self.failing { try JSONDecodingFailure.decode([String: Row].self, from: Data(json.utf8), using: decoder) })
        #expect(failure.path == "player1.score" && failure.byteOffset == 61, "\(failure)")
    }

    @Test func aCustomStrategyIsAskedOnlyAboutKeysTheDecoderAsksAbout() throws {
        let json = #"{"DATA":[{"ID":"a","SCORE":"x"}],"META":{"NESTED":{"DEEP":1}}}"#
        let asked = LockedState<Set<String>>([])
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            asked.withLock { _ = $0.insert(path.map(\.stringValue).joined(separator: "/")) }
            return _TestKey(path[path.count - 1].stringValue.lowercased())
        }
        struct Rows: Decodable { var data: [Row] }
        _ = try? decoder.decode(Rows.self, from: Data(json.utf8))
        let byDecoder = asked.withLock { $0 }
        let failure = try #require(Self.failing { try JSONDecodingFailure.decode(Rows.self, from: Data(json.utf8), using: decoder) })
        #expect(failure.path == "DATA[0].SCORE")
        #expect(asked.withLock { $0 }.subtracting(byDecoder).isEmpty, "\(asked.withLock { $0 }.subtracting(byDecoder).sorted())")
    }

    struct SnakeRow: Decodable { var id: String; var playerScore: Int }
    struct SnakeEnvelope: Decodable { var data: [SnakeRow] }

    @Test func aSnakeCaseDecoderStillGetsThePosition() throws {
        let json = "{\"data\":[\n{\"id\":\"a\",\"player_score\":1},\n{\"id\":\"b\",\"player_score\":\"x\"}\n]}"
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let failure = try #require(Self.failing { try JSONDecodingFailure.decode(SnakeEnvelope.self, from: Data(json.utf8), using: decoder) })
        #expect(failure.byteOffset == 64)
        #expect(failure.line == 3 && failure.column == 26)
        // Named as the document spells it, so it can be found there.
        #expect(failure.path == "data[1].player_score")
    }

    @Test func aCustomKeyStrategyIsFollowed() throws {
        let json = #"{"DATA":[{"ID":"a","SCORE":"x"}]}"#
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            _TestKey(path[path.count - 1].stringValue.lowercased())
        }
        let failure = try #require(Self.failing { try JSONDecodingFailure.decode(Envelope.self, from: Data(json.utf8), using: decoder) })
        #expect(failure.path == "DATA[0].SCORE")
        #expect(failure.byteOffset == 27)
        // The keys of a dictionary are not converted; the row's are.
        let rows = try #require(Self.failing { try JSONDecodingFailure.decode([String: [Row]].self, from: Data(json.utf8), using: decoder) })
        #expect(rows.path == "DATA[0].SCORE")
        #expect(rows.byteOffset == 27)
    }

    @Test func anEscapedKeyStillGetsThePosition() throws {
        let json = #"{"data":[{"id":"a","sc\u006fre":"x"}],"pagination":{"page":1}}"#
        let failure = try #require(Self.failure(json))
        #expect(failure.byteOffset == 32, "\(failure)")
        #expect(failure.path == "data[0].sc\\u006fre" || failure.path == "data[0].score", "\(failure)")
    }

    @Test(arguments: [
        ("player_score", "playerScore"), ("_leading", "_leading"), ("trailing__", "trailing__"),
        ("__both_ends__", "__bothEnds__"), ("one", "one"), ("a__b", "aB"), ("URL_path", "urlPath"), ("___", "___"),
    ])
    func snakeCaseKeysAreMatchedAsTheDecoderConvertsThem(key: String, converted: String) throws {
        let json = "{\"\(key)\":\"x\"}"
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let failure = try #require(Self.failing { try JSONDecodingFailure.decode(_FirstKeyAsInt.self, from: Data(json.utf8), using: decoder) })
        // The decoder's coding path holds its conversion; finding the value means the
        // scanner converted the document's key the same way.
        #expect(failure.reason.contains("Int"))
        #expect(failure.byteOffset == key.utf8.count + 4, "\(failure)")
        #expect(failure.path == key)
        let probe = try decoder.decode(_KeyProbe.self, from: Data("{\"\(key)\":1}".utf8))
        #expect(probe.keys == [converted])
    }

    static func failing<T>(_ body: () throws -> T) -> JSONDecodingFailure? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? JSONDecodingFailure
        }
    }

    @Test func aByteOrderMarkIsSkippedAsTheDecoderSkipsIt() throws {
        let text = #"{"data":[{"id":"a","score":"x"}],"pagination":{"page":1}}"#
        let data = Data([0xEF, 0xBB, 0xBF] + Array(text.utf8))
        let failure = try #require(Self.failure(data))
        #expect(failure.path == "data[0].score")
        #expect(failure.byteOffset == 3 + 27)
        #expect(Self.failure(Data([0xEF, 0xBB, 0xBF] + Array(#"{"data":[],"pagination":{"page":1}}"#.utf8))) == nil)
    }

    @Test func anUnpairedSurrogateEscapeIsLocated() throws {
        let text = #"{"data":[{"id":"ok","score":1},{"id":"\ud800","score":2}],"pagination":{"page":1}}"#
        let failure = try #require(Self.failure(text))
        #expect(failure.path == "data[1].id")
        #expect(failure.byteOffset == 38)  // the backslash
        #expect(failure.reason.contains("surrogate"))
    }

    /// The scanner's verdict on `\u` escapes is JSONDecoder's: surrogates only in pairs.
    @Test(arguments: [
        (#"["\u00e9"]"#, nil), (#"["\ud83d\ude00"]"#, nil), (#"["\uDBFF\uDFFF"]"#, nil),
        (#"["\ud800"]"#, 2), (#"["\udc00"]"#, 2), (#"["a\ud800b"]"#, 3),
        (#"["\ud800\u0041"]"#, 8), (#"["\ud800\ud800"]"#, 8), (#"["\ud83d"]"#, 2),
    ] as [(String, Int?)])
    func surrogateEscapesFollowTheDecoder(json: String, brokenAt offset: Int?) {
        let data = Data(json.utf8)
        let decoderAccepts = (try? JSONDecoder().decode([String].self, from: data)) != nil
        let failure = JSONDecodingFailure(TestFailure(), in: data)
        #expect(decoderAccepts == (offset == nil), "\(json)")
        #expect(failure.byteOffset == offset, "\(json): \(failure)")
    }

    // MARK: Property test against Foundation's parser

    /// A random JSON value as text, without `\u` escapes (whose surrogate rules differ
    /// between parsers and are not what this test is about).
    static func randomJSON(_ rng: inout SplitMix64, depth: Int = 0) -> String {
        switch rng.int(in: 0..<(depth > 3 ? 4 : 7)) {
        case 0: return ["true", "false", "null"][rng.int(in: 0..<3)]
        case 1: return ["0", "-12", "3.25", "1e5", "-0.5E-3", "42"][rng.int(in: 0..<6)]
        case 2, 3:
            let pieces = ["a", "é", "王", "🦊", "\\n", "\\\"", "\\\\", " ", "<b>"]
            return "\"" + (0..<rng.int(in: 0..<5)).map { _ in pieces[rng.int(in: 0..<pieces.count)] }.joined() + "\""
        case 4:
            return "[" + (0..<rng.int(in: 0..<4)).map { _ in randomJSON(&rng, depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            let members = (0..<rng.int(in: 0..<4)).map { index in "\"k\(index)\" : \(randomJSON(&rng, depth: depth + 1))" }
            return "{ " + members.joined(separator: ", ") + "}"
        }
    }

    static func foundationAccepts(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }

    @Test func scannerAgreesWithFoundationOnDamagedDocuments() {
        let damage: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","),
                               UInt8(ascii: ":"), UInt8(ascii: "\""), UInt8(ascii: "x"), UInt8(ascii: "1"), 0xFF, 0xC3, 0x80, 0x0A, 0x01]
        for seed in UInt64(0)..<1_500 {
            var rng = SplitMix64(seed: seed)
            let valid = Array(Self.randomJSON(&rng).utf8)
            #expect(JSONDecodingFailure(TestFailure(), in: Data(valid)).byteOffset == nil, "seed \(seed): valid document reported broken")
            var damaged = valid
            if rng.chance(0.5), !damaged.isEmpty {
                damaged.removeLast(rng.int(in: 1..<damaged.count + 1))
            } else if !damaged.isEmpty {
                damaged[rng.int(in: 0..<damaged.count)] = damage[rng.int(in: 0..<damage.count)]
            }
            let failure = JSONDecodingFailure(TestFailure(), in: Data(damaged))
            let scannerAccepts = failure.byteOffset == nil
            #expect(scannerAccepts == Self.foundationAccepts(damaged), "seed \(seed): \(String(decoding: damaged, as: UTF8.self)) → \(failure)")
            if damaged.count < valid.count, !scannerAccepts {
                // At the end, or at the start of a UTF-8 sequence cut by the end.
                let offset = failure.byteOffset ?? -1
                #expect(offset <= damaged.count && offset >= damaged.count - 3, "seed \(seed): a truncated document breaks where it ends, not at \(offset)")
            }
        }
    }
}

/// A coding key made of a string.
struct _TestKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The keys a decoder hands a keyed container, after its key strategy.
struct _KeyProbe: Decodable {
    var keys: [String]
    init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: _TestKey.self).allKeys.map(\.stringValue)
    }
}

/// Decodes its first key as an `Int`: a type mismatch at that key when it holds a string.
struct _FirstKeyAsInt: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _TestKey.self)
        guard let key = container.allKeys.first else { return }
        _ = try container.decode(Int.self, forKey: key)
    }
}
