import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core context and the peer's
/// address, which `/events` counts windows by (`--max-windows-per-client`).
struct DemoRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection's peer, as the socket saw it.
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address (or socket path), which caps are counted by; one name for
    /// every connection whose peer is unknown.
    var client: String {
        remoteAddress?.ipAddress ?? remoteAddress?.pathname ?? "unknown"
    }
}
