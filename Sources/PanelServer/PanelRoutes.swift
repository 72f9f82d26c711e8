import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import PanelProtocol

/// The HTTP side: `/` serves the page, `/ws` explains why a WebSocket upgrade was refused (the
/// upgrade itself happens before routing), every other path is 404. No path from a request ever
/// names a file.
enum PanelRoutes {
    static func router(gate: PanelGate, limits: ClientLimits) -> Router<PanelContext> {
        let router = Router(context: PanelContext.self)
        router.middlewares.add(RequestLimit(limits: limits))
        router.get("/") { request, _ -> Response in
            let panel = PanelRequest(request.head)
            if case .refuse(let status, let reason) = panel.admitPage(gate) { return text(status, reason) }
            return Response(status: .ok, headers: pageHeaders, body: .init(byteBuffer: ByteBuffer(string: PanelPage.html)))
        }
        router.get("/ws") { request, _ -> Response in
            let panel = PanelRequest(request.head)
            if case .refuse(let status, let reason) = panel.admitSocket(gate) { return text(status, reason) }
            if limits.openSockets >= ClientLimits.maxSockets {
                return text(503, "the panel has \(ClientLimits.maxSockets) pages open already; close one")
            }
            return text(400, "expected a WebSocket upgrade")
        }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        return router
    }

    /// The page is inline HTML, CSS and script; it may talk only to this server, never be framed,
    /// and never send its URL (with the token) elsewhere.
    static let pageHeaders: HTTPFields = [
        .contentType: "text/html; charset=utf-8",
        .cacheControl: "no-store",
        .contentSecurityPolicy: "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
        HTTPField.Name("X-Frame-Options")!: "DENY",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
    ]

    static func text(_ status: Int, _ reason: String) -> Response {
        Response(status: .init(code: status), headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: reason + "\n")))
    }
}

/// The request context: Hummingbird's basics and the peer's address (for the request limit).
struct PanelContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let peer: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}

/// 429 for an address past `ClientLimits.requestsPerSecond` (burst `requestBurst`).
struct RequestLimit: RouterMiddleware {
    let limits: ClientLimits

    func handle(_ request: Request, context: PanelContext, next: (Request, PanelContext) async throws -> Response) async throws -> Response {
        guard limits.allowRequest(from: context.peer, now: PanelSocket.now()) else {
            return PanelRoutes.text(429, "too many requests from \(context.peer); slow down")
        }
        return try await next(request, context)
    }
}
