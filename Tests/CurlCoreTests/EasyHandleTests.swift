import CCurl
import CurlCore
import XCTest

final class EasyHandleTests: XCTestCase {
    func testOptionsAndErrorsRoundTrip() {
        let easy = EasyHandle()
        easy.set(CURLOPT_URL, "http://127.0.0.1:1/")
        easy.set(CURLOPT_CONNECTTIMEOUT_MS, 2000)
        easy.set(CURLOPT_HTTPHEADER, headers: ["X-A: 1", "X-B;"])
        XCTAssertEqual(easy.lastErrorDetail, "")
        XCTAssertEqual(easy.info(CURLINFO_RESPONSE_CODE), 0)
    }

    func testCurlErrorCarriesLibcurlsMessage() {
        let error = CurlError(code: CURLE_COULDNT_CONNECT)
        XCTAssertEqual(error.code, 7)
        XCTAssertEqual(error.message, "Couldn't connect to server")
        XCTAssertEqual(CurlError(code: CURLE_COULDNT_CONNECT, detail: "Failed to connect").message, "Failed to connect")
    }

    func testVersionNamesLibcurl() {
        XCTAssertTrue(CurlRuntime.versionDescription.hasPrefix("libcurl/"))
    }
}
