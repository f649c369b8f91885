import Foundation

/// The browser client, `list-client.js`: a dependency-free ES module that applies
/// snapshot and batch messages to a keyed container element.
///
/// Serve ``source`` with ``mediaType`` and import it from a page:
///
/// ```html
/// <ul id="list"></ul>
/// <script type="module">
///   import { connectEventSource } from "/list-client.js";
///   connectEventSource(document.getElementById("list"), "/events", { snapshotURL: "/snapshot" });
/// </script>
/// ```
///
/// The file ships as a resource of this module. It is looked up in the resource bundle
/// SwiftPM builds next to the executable or in the main bundle's resources (where
/// `Bundle.module` looks: a `.resources` directory on Linux, a `.bundle` on Apple
/// platforms), then in the package's source tree. Unlike `Bundle.module`, which stops
/// the process when the bundle is missing, a failed lookup only makes ``source`` `nil`.
public enum WebListClientScript {
    /// The file name, `list-client.js`.
    public static let fileName = "list-client.js"

    /// The media type to serve the script with.
    public static let mediaType = "text/javascript; charset=utf-8"

    /// The script's text, or `nil` when the file cannot be found.
    ///
    /// - Complexity: the file is read once, on first use.
    public static var source: String? { _loaded?.source }

    /// Where the script was found, or `nil`.
    ///
    /// - Complexity: the file is read once, on first use of this or ``source``.
    public static var url: URL? { _loaded?.url }

    private static let _loaded: (url: URL, source: String)? = _firstReadable(_candidateURLs())

    /// The first of `candidates` that holds UTF-8 text, with the text.
    static func _firstReadable(_ candidates: [URL]) -> (url: URL, source: String)? {
        for url in candidates {
            if let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) {
                return (url, text)
            }
        }
        return nil
    }

    /// Candidate locations, best first: the resource bundles in the main executable's
    /// directories (see ``_candidateURLs(searching:)``), then the source tree this file
    /// was compiled from.
    static func _candidateURLs() -> [URL] {
        var directories = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL?.deletingLastPathComponent(), executable != Bundle.main.bundleURL {
            directories.append(executable)
        }
        if let resources = Bundle.main.resourceURL, !directories.contains(resources) {
            directories.append(resources)
        }
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Resources").appendingPathComponent(fileName)
        return _candidateURLs(searching: directories) + [sourceTree]
    }

    /// For every `*_WebListRenderer.resources` (Linux) or `*_WebListRenderer.bundle`
    /// (Apple platforms) bundle in `directories`, `list-client.js` at the bundle's top
    /// level and in its `Contents/Resources` (a macOS bundle's layout). The bundle's
    /// prefix is the package's name or identity, which depends on how it was checked out.
    static func _candidateURLs(searching directories: [URL]) -> [URL] {
        var candidates: [URL] = []
        for directory in directories {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where name.hasSuffix("_WebListRenderer.resources") || name.hasSuffix("_WebListRenderer.bundle") {
                let bundle = directory.appendingPathComponent(name)
                candidates.append(bundle.appendingPathComponent(fileName))
                candidates.append(bundle.appendingPathComponent("Contents/Resources").appendingPathComponent(fileName))
            }
        }
        return candidates
    }
}

extension WebListRenderer {
    /// The browser client's source (see ``WebListClientScript``), or `nil` when the file
    /// cannot be found.
    ///
    /// - Complexity: the file is read once, on first use.
    public static var clientScript: String? { WebListClientScript.source }
}
