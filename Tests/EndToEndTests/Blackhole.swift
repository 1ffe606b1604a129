import Foundation
import XCTest

/// A loopback port whose connections time out, as a host that is down behind a firewall does:
/// a socket listening with a backlog of none, its queue filled by one connection of its own
/// that is never accepted. Linux then drops every SYN to the port, so a client's connect waits
/// for its timeout, every time and on any machine (a non-routable address may instead fail at
/// once, as "network unreachable", where there is no route).
final class Blackhole {
    let port: Int
    private let listener: Int32
    private let filler: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listening, listen(listener, 0) == 0 else { throw NginxError(message: "cannot listen: errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
        // The one connection the queue holds: it completes, and no other will.
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.filler = filler
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) == 0 }
        }
        guard connected else { throw NginxError(message: "cannot fill the queue: errno \(errno)") }
    }

    deinit {
        close(filler)
        close(listener)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
}
