import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LeaderboardFixtures
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fixture HTTP server (`Fixtures/server.py`) running as a child process.
///
/// Start it with `withFixtureServer { server in … }`, which stops it when the body
/// returns or throws. It listens on an ephemeral port of 127.0.0.1.
final class FixtureServer {
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    let process: Process
    let baseURL: URL

    private init(process: Process, baseURL: URL) {
        self.process = process
        self.baseURL = baseURL
    }

    /// Starts `python3 Fixtures/server.py --port 0` and waits for its `LISTENING` line.
    ///
    /// - Throws: `StartError` with the reason (python3 missing, server crashed).
    static func start(arguments: [String] = []) async throws -> FixtureServer {
        let fixtures = try FixtureDirectory.locate()
        let script = fixtures.url.appendingPathComponent("server.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--port", "0"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw StartError(description: "cannot run /usr/bin/env python3 \(script): \(error). The HTTP tests need python3 on PATH.")
        }
        let line = await readLine(output.fileHandleForReading)
        guard let line, line.hasPrefix("LISTENING "), let url = URL(string: String(line.dropFirst("LISTENING ".count))) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw StartError(description: """
                the fixture server did not start (exit status \(process.terminationStatus)); \
                the HTTP tests need python3 on PATH. stdout: \(line ?? "<nothing>"); stderr: \(stderr)
                """)
        }
        return FixtureServer(process: process, baseURL: url)
    }

    /// Reads one line without blocking the cooperative pool; `nil` at end of file.
    private static func readLine(_ handle: FileHandle) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while true {
                    let chunk = handle.readData(ofLength: 1)
                    guard let byte = chunk.first else {
                        continuation.resume(returning: bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self))
                        return
                    }
                    if byte == UInt8(ascii: "\n") {
                        continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
                        return
                    }
                    bytes.append(byte)
                }
            }
        }
    }

    /// Stops the server and waits for it to exit.
    ///
    /// A child started by `Process` from a Swift concurrency thread inherits that
    /// thread's signal mask, in which SIGTERM is blocked, so the server would never see
    /// `terminate()`. It keeps no state worth a clean shutdown: SIGKILL it.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// `baseURL` + `path`.
    func url(_ path: String) -> URL {
        baseURL.appendingPathComponent(path)
    }

    /// `GET /control?…`; returns the control state.
    @discardableResult
    func control(_ query: String) async throws -> [String: Any] {
        try await getJSON("control?\(query)")
    }

    /// `GET /stats`: data requests per endpoint since the start or the last reset.
    func requestCounts() async throws -> [String: Int] {
        let stats = try await getJSON("stats")
        return stats["requests"] as? [String: Int] ?? [:]
    }

    /// `GET /stats`: data requests per endpoint that carried an `Authorization` header.
    func authorizedCounts() async throws -> [String: Int] {
        let stats = try await getJSON("stats")
        return stats["authorized"] as? [String: Int] ?? [:]
    }

    /// The server's port.
    var port: Int { baseURL.port ?? 0 }

    private func getJSON(_ pathAndQuery: String) async throws -> [String: Any] {
        guard let url = URL(string: baseURL.absoluteString + "/" + pathAndQuery) else {
            throw StartError(description: "bad URL for \(pathAndQuery)")
        }
        let (data, response) = try await URLSession.shared.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw StartError(description: "\(url) answered \(response)")
        }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}

/// Runs `body` with a freshly started fixture server and stops the server afterwards,
/// whether `body` returns or throws.
func withFixtureServer<T>(arguments: [String] = [], _ body: (FixtureServer) async throws -> T) async throws -> T {
    let server = try await FixtureServer.start(arguments: arguments)
    do {
        let result = try await body(server)
        server.stop()
        return result
    } catch {
        server.stop()
        throw error
    }
}
