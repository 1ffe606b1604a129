/// The URLs of a multipart upload's requests (CreateMultipartUpload, UploadPart, ListParts,
/// CompleteMultipartUpload, AbortMultipartUpload). libcurl 7.88 signs the query as it is sent,
/// so each is written in SigV4's canonical form: parameters in name order, each with an `=`
/// (`uploads=`, not `uploads`), values escaped as the canonical query escapes them.
extension S3Endpoint {
    /// CreateMultipartUpload: POST here.
    public func uploadsURL(_ location: S3Location) -> String {
        objectURL(location) + "?uploads="
    }

    /// UploadPart: PUT part `number` (1...10 000) of upload `uploadID` here.
    public func partURL(_ location: S3Location, uploadID: String, number: Int) -> String {
        objectURL(location) + "?partNumber=\(number)&uploadId=" + S3Location.escaped(uploadID, keepingSlash: false)
    }

    /// The upload itself: POST to complete it, DELETE to abort it.
    public func uploadURL(_ location: S3Location, uploadID: String) -> String {
        objectURL(location) + "?uploadId=" + S3Location.escaped(uploadID, keepingSlash: false)
    }

    /// ListParts: GET a page of the parts the store holds, those after part `marker`.
    public func partsURL(_ location: S3Location, uploadID: String, after marker: Int?) -> String {
        let query = marker.map { "part-number-marker=\($0)&" } ?? ""
        return objectURL(location) + "?" + query + "uploadId=" + S3Location.escaped(uploadID, keepingSlash: false)
    }
}
