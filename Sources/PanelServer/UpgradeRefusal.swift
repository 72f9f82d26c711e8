import NIOCore
import NIOHTTP1

/// Answers a refused WebSocket upgrade with the admission's status and reason, then closes the
/// connection. hummingbird-websocket answers every upgrade it is told not to make with an empty
/// `400 Bad Request`; the response written here reaches the client first (the connection is closed
/// once it is flushed, so that 400 is never sent). Event-loop thread, from `shouldUpgrade`, while
/// NIO's HTTP response encoder is still in the pipeline.
enum UpgradeRefusal {
    static func send(status: Int, reason: String, on channel: any Channel) {
        let body = ByteBuffer(string: reason + "\n")
        let headers = HTTPHeaders([
            ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", String(body.readableBytes)),
            ("Cache-Control", "no-store"), ("Connection", "close"),
        ])
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(body)), promise: nil)
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
    }
}
