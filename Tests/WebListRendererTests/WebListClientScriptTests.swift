import Foundation
import Testing
import WebListRenderer

@Suite("WebListClientScript")
struct WebListClientScriptTests {
    @Test func theScriptLoadsAndIsTheFileInTheSourceTree() throws {
        let source = try #require(WebListClientScript.source, "list-client.js was not found")
        #expect(source.contains("export function applyMessage"))
        #expect(source.contains("export class ListClient"))
        #expect(source.contains("export function connectEventSource"))
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/WebListRenderer/Resources/list-client.js").standardizedFileURL
        #expect(source == (try String(contentsOf: file, encoding: .utf8)))
        #expect(WebListRenderer<DataSourceItem<String>>.clientScript == source)
    }

    @Test func theScriptIsReadFromTheResourceBundleWhenThereIsOne() throws {
        let url = try #require(WebListClientScript.url)
        // Under `swift test` the resource bundle sits beside the test binary.
        #expect(url.deletingLastPathComponent().lastPathComponent.hasSuffix("_WebListRenderer.resources"))
        #expect(WebListClientScript.mediaType.hasPrefix("text/javascript"))
    }
}
