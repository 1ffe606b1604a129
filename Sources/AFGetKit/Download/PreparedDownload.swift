import CurlCore

/// An item checked and ready to transfer: its request, and the open part file (or stdout).
struct PreparedDownload {
    let info: ItemInfo
    let request: HTTPRequest
    /// nil when the body streams to standard output.
    let part: PartFile?

    var sink: FileDescriptorSink {
        guard let part else { return .standardOutput }
        return FileDescriptorSink(descriptor: part.descriptor, name: part.path)
    }

    /// What becomes of an item before any byte is transferred.
    enum Preparation {
        case ready(PreparedDownload)
        case skip(ItemInfo, reason: String)
        case fail(ItemInfo, ItemFailure)
    }

    /// Parses the URL, resolves the destination under `--on-exists`, and opens the part file.
    static func prepare(_ item: DownloadItem, settings: DownloadSettings) -> Preparation {
        var info = ItemInfo(id: item.index, url: item.url, path: "")
        let request: HTTPRequest
        do {
            request = try RequestSerializer(headers: settings.headers).request(url: item.url)
        } catch {
            return .fail(info, error)
        }
        do {
            switch try Destination.resolve(item.output, for: request.url, onExists: settings.onExists) {
            case .standardOutput:
                info = ItemInfo(id: item.index, url: item.url, path: "-")
                return .ready(PreparedDownload(info: info, request: request, part: nil))
            case .skip(let path, let reason):
                return .skip(ItemInfo(id: item.index, url: item.url, path: path), reason: reason)
            case .file(let path):
                info = ItemInfo(id: item.index, url: item.url, path: path)
                let part = try PartFile.open(for: path)
                return .ready(PreparedDownload(info: info, request: request, part: part))
            }
        } catch {
            return .fail(info, ItemFailure(item: info.path.isEmpty ? item.url : info.path, error))
        }
    }
}
