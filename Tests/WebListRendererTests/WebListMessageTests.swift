import Foundation
import Testing
import WebListRenderer

@Suite("WebListMessage")
struct WebListMessageTests {
    @Test func snapshotEncodesWithFixedKeyOrder() {
        let message = WebListMessage.snapshot(version: 7, items: [
            WebListRow(id: "a", html: "<b>A</b>"),
            WebListRow(id: "b", html: "B"),
        ])
        #expect(message.json == #"{"type":"snapshot","version":7,"items":[{"id":"a","html":"<b>A</b>"},{"id":"b","html":"B"}]}"#)
        #expect(WebListMessage.snapshot(version: 0, items: []).json == #"{"type":"snapshot","version":0,"items":[]}"#)
    }

    @Test func batchEncodesEveryStepKind() {
        let message = WebListMessage.batch(from: 7, to: 8, steps: [
            .remove(at: 3),
            .insert(WebListRow(id: "x", html: "<i>x</i>"), at: 0),
            .move(from: 5, to: 1),
            .reload(WebListRow(id: "y", html: "Y"), at: 2),
        ])
        #expect(message.json == #"{"type":"batch","from":7,"to":8,"steps":[{"op":"remove","at":3},{"op":"insert","at":0,"id":"x","html":"<i>x</i>"},{"op":"move","from":5,"to":1},{"op":"reload","at":2,"id":"y","html":"Y"}]}"#)
        #expect(message.version == 8)
    }

    @Test func stringsAreEscapedForJSON() throws {
        let tricky = "quote \" backslash \\ newline \n tab \t cr \r nul \u{0} bell \u{7} slash / Zoë 👩‍💻 \u{2028}"
        let message = WebListMessage.snapshot(version: 1, items: [WebListRow(id: "id \"1\"", html: tricky)])
        let json = message.json
        #expect(json.contains(#"quote \" backslash \\ newline \n tab \t cr \r nul \u0000 bell \u0007 slash / Zoë 👩‍💻"#))
        #expect(!json.contains("\n"), "a message is one line")
        // Foundation's parser agrees with the encoding.
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let items = parsed?["items"] as? [[String: String]]
        #expect(items?.first?["html"] == tricky)
        #expect(items?.first?["id"] == "id \"1\"")
        #expect(try WebListMessage(json: json) == message)
    }

    @Test func decodingIsTheInverseOfEncoding() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 50 {
            let steps: [WebListStep] = (0 ..< Int.random(in: 0 ..< 8, using: &generator)).map { index in
                let row = WebListRow(id: "r\(index)", html: "<em>\(index) & \"\(index)\"</em>")
                switch Int.random(in: 0 ..< 4, using: &generator) {
                case 0: return .remove(at: index)
                case 1: return .insert(row, at: index)
                case 2: return .move(from: index, to: index * 2)
                default: return .reload(row, at: index)
                }
            }
            let batch = WebListMessage.batch(from: 3, to: 4, steps: steps)
            #expect(try WebListMessage(json: batch.json) == batch)
        }
    }

    @Test func decodingAcceptsAnyKeyOrderAndWhitespace() throws {
        let json = #"{ "steps": [ {"at": 1, "op": "remove"} ], "to": 3, "type": "batch", "from": 2 }"#
        #expect(try WebListMessage(json: json) == .batch(from: 2, to: 3, steps: [.remove(at: 1)]))
    }

    @Test func malformedMessagesThrowAndSayWhere() {
        func error(_ json: String) -> WebListMessageError? {
            do {
                _ = try WebListMessage(json: json)
                return nil
            } catch {
                return error
            }
        }
        #expect(error(#"{"type":"batch","from":1,"to":2,"steps":[{"op":"remove"}]}"#)?.path == "steps[0]")
        #expect(error(#"{"type":"batch","from":1,"to":2,"steps":[{"op":"jump","at":1}]}"#)?.path == "steps[0].op")
        #expect(error(#"{"type":"snapshot","version":"7","items":[]}"#)?.path == "version")
        #expect(error(#"{"type":"ping"}"#)?.path == "type")
        #expect(error(#"{"type":"snapshot","version":1,"items":[{"id":"a"}]}"#)?.description.contains("items[0]") == true)
        #expect(error("not json") != nil)
        #expect(error(#"{"type":"snapshot","version":1,"items":[]}"#) == nil)
    }

    @Test func frameKnowsItsKindVersionsAndSize() {
        let batch = WebListFrame(.batch(from: 4, to: 5, steps: [.remove(at: 0)]))
        #expect(batch.kind == .batch && batch.fromVersion == 4 && batch.version == 5)
        #expect(batch.byteCount == batch.json.utf8.count)
        #expect(batch.serverSentEvent == "data: " + batch.json + "\n\n")
        let snapshot = WebListFrame(.snapshot(version: 9, items: [WebListRow(id: "ü", html: "é")]))
        #expect(snapshot.kind == .snapshot && snapshot.fromVersion == nil && snapshot.version == 9)
        #expect(snapshot.byteCount > snapshot.json.count, "bytes count UTF-8, not characters")
    }
}
