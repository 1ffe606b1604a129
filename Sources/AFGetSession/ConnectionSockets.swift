import CPlatform
import Glibc

/// The sockets of the connections that requests with a body were sent on, learnt as libcurl
/// opens them, so that a transfer's bytes still waiting in the kernel's send queue can be
/// read. libcurl 7.88 tells a transfer's socket (CURLINFO_ACTIVESOCKET) only once it is done,
/// and a connection reused from an earlier upload is not opened again: a transfer's socket
/// is the one whose two ends are its connection's ports. Curl thread only.
final class ConnectionSockets {
    private var sockets: Set<Int32> = []

    /// libcurl opened `socket` for a transfer.
    func opened(_ socket: Int32) {
        sockets.insert(socket)
    }

    /// Bytes handed to the kernel for the connection between `localPort` and `remotePort` that
    /// have not left yet (or are not yet acknowledged); 0 when there is no such socket.
    func unsentBytes(localPort: Int, remotePort: Int) -> Int64 {
        guard localPort > 0 else { return 0 }
        for socket in sockets {
            guard let ends = Self.ports(of: socket) else {
                // Closed since (libcurl closes what it opened), or its number now another file's.
                sockets.remove(socket)
                continue
            }
            if ends.local == localPort && ends.remote == remotePort {
                return Int64(max(0, afp_unsent_bytes(socket)))
            }
        }
        return 0
    }

    /// The local and remote ports of a connected TCP socket.
    private static func ports(of socket: Int32) -> (local: Int, remote: Int)? {
        guard let local = port(of: socket, getsockname), let remote = port(of: socket, getpeername) else { return nil }
        return (local, remote)
    }

    private static func port(
        of socket: Int32, _ name: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> Int? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { name(socket, $0, &length) }
        }
        guard result == 0 else { return nil }
        return withUnsafePointer(to: &address) { pointer -> Int? in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            default:
                nil
            }
        }
    }
}
