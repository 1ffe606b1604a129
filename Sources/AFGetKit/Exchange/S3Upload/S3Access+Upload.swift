import AFGetRequest
import AFGetSupport

extension S3Access {
    /// A request of an upload (`method` to `url` with `body`), signed when there are
    /// credentials; its payload is not hashed into the signature (`UNSIGNED-PAYLOAD`), since
    /// `x-amz-checksum-sha256` already binds the bytes, checked by the store.
    func request(_ method: String, to url: String, headers: [HTTPHeader] = [], body: RequestBody = .none)
        throws(ItemFailure) -> HTTPRequest
    {
        var request = try RequestSerializer(headers: headers).request(method: method, url: url, body: body, for: .upload)
        request.signing = signing
        return request
    }
}
