import Foundation
import Glibc
import TestServer
import XCTest

/// A real nginx (Debian's package) on a free loopback port, serving a directory of the test's,
/// the same files at 4 MB/s under /slow/ and at 256 KB/s under /slower/, and WebDAV PUT under
/// /dav/; the same over TLS with HTTP/2 on a second port (the test certificates). Its access log
/// records, per response, the connection's serial number, the Range asked for and the bytes
/// sent; a second log, each request's URI (`loggedRequests`). With `autoindex`, a directory is
/// answered with nginx's listing of it. Scripts/test.sh installs nginx.
final class NginxServer {
    let root: URL
    let port: Int
    let tlsPort: Int
    private let process: Process
    private let prefix: URL

    /// `locations`: more of the server's configuration (a redirect's `location`).
    init(autoindex: Bool = false, locations: String = "") throws {
        let executable = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let executable else {
            throw NginxError(message: "nginx is not installed; Scripts/test.sh installs it")
        }
        prefix = try makeScratchDirectory()
        root = prefix.appendingPathComponent("www")
        for directory in ["www", "www/dav", "tmp", "logs"] {
            try FileManager.default.createDirectory(
                at: prefix.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        port = try freePort()
        tlsPort = try freePort()
        let certificates = TestCertificates.shared
        let temp = prefix.appendingPathComponent("tmp").path
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/logs/error.log;
            events { worker_connections 256; }
            http {
                log_format wire '$connection "$http_range" $status $bytes_sent';
                access_log \(prefix.path)/logs/access.log wire;
                log_format requests '$connection $status $msec $request_uri';
                access_log \(prefix.path)/logs/requests.log requests;
                # nginx closes a connection after 1000 requests (its default): a list that
                # reuses one connection that often would need a ninth at -j 8, which is the
                # server's doing, not afget's.
                keepalive_requests 100000;
                client_body_temp_path \(temp)/body;
                proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi;
                uwsgi_temp_path \(temp)/uwsgi;
                scgi_temp_path \(temp)/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    listen 127.0.0.1:\(tlsPort) ssl http2;
                    ssl_certificate \(certificates.good.certificatePath);
                    ssl_certificate_key \(certificates.good.privateKeyPath);
                    root \(root.path);
                    autoindex \(autoindex ? "on" : "off");
                    location /slow/ {
                        alias \(root.path)/;
                        limit_rate 4m;
                    }
                    \(locations)
                    location /slower/ {
                        alias \(root.path)/;
                        limit_rate 256k;
                    }
                    location /dav/ {
                        dav_methods PUT DELETE;
                        create_full_put_path on;
                        client_max_body_size 0;
                    }
                }
            }
            """
        let configFile = prefix.appendingPathComponent("nginx.conf")
        try configuration.write(to: configFile, atomically: true, encoding: .utf8)

        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "-p", prefix.path, "-c", configFile.path, "-e", prefix.appendingPathComponent("logs/error.log").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitUntilListening()
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: prefix)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Over TLS, where nginx offers HTTP/2; the test CA (`TestCertificates.shared.caPath`) signs it.
    func tlsURL(_ path: String) -> String { "https://127.0.0.1:\(tlsPort)\(path)" }

    /// One line of the access log: a response as nginx sent it.
    struct LoggedResponse {
        /// nginx's serial number of the connection that carried it.
        let connection: Int
        let range: String
        let status: Int
        let bytesSent: Int
    }

    /// The responses logged so far (nginx writes a line as each response ends).
    func loggedResponses() -> [LoggedResponse] {
        let text = (try? String(contentsOf: prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 4, let connection = Int(fields[0]), let status = Int(fields[2]),
                let bytes = Int(fields[3])
            else { return nil }
            return LoggedResponse(
                connection: connection, range: fields[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")),
                status: status, bytesSent: bytes)
        }
    }

    /// One line of the requests log: a request's URI as it was asked for, its answer, and
    /// when the answer ended (seconds since 1970, to the millisecond).
    struct LoggedRequest: Equatable {
        let connection: Int
        let status: Int
        let time: Double
        let uri: String
    }

    /// The requests logged so far (a line as each response ends).
    func loggedRequests() -> [LoggedRequest] {
        let text = (try? String(contentsOf: prefix.appendingPathComponent("logs/requests.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 3)
            guard fields.count == 4, let connection = Int(fields[0]), let status = Int(fields[1]),
                let time = Double(fields[2])
            else { return nil }
            return LoggedRequest(connection: connection, status: status, time: time, uri: String(fields[3]))
        }
    }

    /// Polls the port until nginx accepts connections (or fails after 10 s).
    private func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard process.isRunning else {
                let log = (try? String(contentsOf: prefix.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
                throw NginxError(message: "nginx exited: \(log)")
            }
            if canConnect(port: port) { return }
            usleep(20_000)
        }
        throw NginxError(message: "nginx did not listen on port \(port) within 10 s")
    }
}

struct NginxError: Error {
    let message: String
}

func canConnect(port: Int) -> Bool {
    let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socketDescriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// A loopback port nothing listens on right now: bound to port 0, read back, released.
func freePort() throws -> Int {
    let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socketDescriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(socketDescriptor, $0, length) == 0 && getsockname(socketDescriptor, $0, &length) == 0
        }
    }
    guard bound else { throw NginxError(message: "cannot find a free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}
