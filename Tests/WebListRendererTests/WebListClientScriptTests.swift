import Foundation
import Testing
@testable import WebListRenderer

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

    @Test func theScriptIsFoundInEachLayoutOfResourceBundleAndNowhereElse() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("list-client-lookup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let layouts = [
            ("linux", "ListEngine_WebListRenderer.resources", ""),  // SwiftPM on Linux
            ("ios", "listengine_WebListRenderer.bundle", ""),  // a flat bundle
            ("macos", "ListEngine_WebListRenderer.bundle", "Contents/Resources"),  // a macOS bundle
            ("other", "ListEngine_OtherTarget.bundle", ""),  // another target's bundle
        ]
        for (directory, bundle, inside) in layouts {
            let folder = root.appendingPathComponent(directory).appendingPathComponent(bundle).appendingPathComponent(inside)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("// \(directory)".utf8).write(to: folder.appendingPathComponent(WebListClientScript.fileName))
        }
        for (directory, _, _) in layouts {
            let found = WebListClientScript._firstReadable(WebListClientScript._candidateURLs(searching: [root.appendingPathComponent(directory)]))
            #expect(found?.source == (directory == "other" ? nil : "// \(directory)"), "\(directory)")
        }
    }
}
