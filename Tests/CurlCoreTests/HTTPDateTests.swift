import CCurl
@testable import CurlCore
import XCTest

final class HTTPDateTests: XCTestCase {
    /// The direct reading of the current form agrees with libcurl's parser.
    func testFixdateReadsAsLibcurlReadsIt() {
        for text in [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "Tue, 29 Feb 2028 23:59:59 GMT",
            "Fri, 31 Dec 2060 12:00:01 GMT",
        ] {
            XCTAssertNotNil(HTTPDate.fixdateSeconds(Array(text.utf8)), text)
            XCTAssertEqual(HTTPDate.seconds(from: text), Int64(curl_getdate(text, nil)), text)
        }
        XCTAssertEqual(HTTPDate.seconds(from: "Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
    }

    func testOlderFormsGoToLibcurl() {
        for text in ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "6 Nov 1994 08:49:37 +0000"] {
            XCTAssertNil(HTTPDate.fixdateSeconds(Array(text.utf8)), text)
            XCTAssertEqual(HTTPDate.seconds(from: text), 784_111_777, text)
        }
    }

    func testNonsenseIsNoDate() {
        for text in ["", "yesterday", "Sun, 06 Xyz 1994 08:49:37 GMT", "Sun, 36 Nov 1994 08:49:37 GMT"] {
            XCTAssertNil(HTTPDate.seconds(from: text), text)
        }
    }

    func testFormatReadsBack() {
        XCTAssertEqual(HTTPDate.format(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDate.seconds(from: HTTPDate.format(1_795_374_671)), 1_795_374_671)
    }
}
