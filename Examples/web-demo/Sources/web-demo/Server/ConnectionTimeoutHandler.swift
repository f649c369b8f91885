import NIOCore
import NIOHTTPTypes

/// Closes a connection that has no request in progress when its header or idle deadline
/// passes (see ``ConnectionDeadline``), so that connections that send nothing, half a
/// request head, or nothing more after a response do not hold a socket for ever.
///
/// It goes after the HTTP decoder, where request heads arrive whole: in Hummingbird, as
/// one of `HTTP1Channel.Configuration`'s additional channel handlers. Bytes that do not
/// complete a head yet are seen through `channelReadComplete`, which the decoder passes
/// on after every read of the socket.
///
/// Hummingbird's own `idleTimeout` is left unset: it restarts from each part of a
/// request, with one timeout for both waits.
final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var deadline: ConnectionDeadline
    private var pending: Scheduled<Void>?
    private var hasStarted = false

    init(header: Duration, idle: Duration) {
        deadline = ConnectionDeadline(header: header, idle: idle)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        pending?.cancel()
        pending = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending?.cancel()
        pending = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { perform(deadline.requestHeadArrived(), context) }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        perform(deadline.bytesArrived(), context)
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { perform(deadline.responseEnded(), context) }
        context.write(data, promise: promise)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !hasStarted else { return }
        hasStarted = true
        perform(deadline.connected(), context)
    }

    private func perform(_ action: ConnectionDeadline.Action, _ context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .cancel:
            pending?.cancel()
            pending = nil
        case .schedule(let delay):
            pending?.cancel()
            pending = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
                self.pending = nil
                if self.deadline.deadlinePassed() { context.close(promise: nil) }
            }
        }
    }
}
