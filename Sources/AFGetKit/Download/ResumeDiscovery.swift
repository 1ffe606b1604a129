import Glibc

/// Finds what `afget resume PATH...` continues: each `.afresume` file named, and every one in a
/// directory named. The destination is the resume file's own path without the suffix, so a
/// moved directory still resumes in place.
public enum ResumeDiscovery {
    public struct Found: Sendable {
        public var items: [DownloadItem] = []
        /// Resume files that cannot be used, each naming the file and the cause.
        public var failures: [ItemFailure] = []
    }

    /// `replacementURL` continues the (single) resume file against a new URL. The recorded
    /// request headers are replayed, except those `commandHeaders` give again.
    public static func find(_ paths: [String], replacementURL: String?, commandHeaders: [HTTPHeader] = []) -> Found {
        let givenAgain = Set(commandHeaders.map { $0.name.lowercased() })
        var found = Found()
        var resumeFiles: [String] = []
        for path in paths.isEmpty ? ["."] : paths {
            if fileKind(at: path, followingSymlinks: true) == S_IFDIR {
                resumeFiles += listResumeFiles(in: path)
            } else if path.hasSuffix(ResumeStore.suffix) {
                resumeFiles.append(path)
            } else {
                found.failures.append(ItemFailure(item: path, TransferFailure(.usage, "not a directory or a \(ResumeStore.suffix) file")))
            }
        }
        if replacementURL != nil && resumeFiles.count != 1 {
            found.failures.append(ItemFailure(item: "--url", TransferFailure(.usage,
                "applies to exactly one resume file (found \(resumeFiles.count))")))
            return found
        }
        for file in resumeFiles {
            let destination = String(file.dropLast(ResumeStore.suffix.count))
            do {
                guard let data = try ResumeStore(destination: destination).load() else {
                    found.failures.append(ItemFailure(item: file, TransferFailure(.localFile, "no such file")))
                    continue
                }
                let replayed = data.headers.compactMap { try? HTTPHeader.parse($0) }
                    .filter { !givenAgain.contains($0.name.lowercased()) }
                found.items.append(DownloadItem(
                    index: found.items.count, url: replacementURL ?? data.url, output: .path(destination),
                    replacesURL: replacementURL == nil ? nil : data.url, headers: replayed,
                    takesServerName: data.takesServerName))
            } catch where error.kind == .resumeConflict {
                // Without usable resume data there is no URL to continue from.
                found.failures.append(ItemFailure(item: destination, TransferFailure(.resumeConflict,
                    "\(error.message); run the command that started it again with --restart to start over")))
            } catch {
                found.failures.append(ItemFailure(item: destination, error))
            }
        }
        return found
    }

    private static func listResumeFiles(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasSuffix(ResumeStore.suffix) && name != ResumeStore.suffix {
                names.append(joinPath(directory, name))
            }
        }
        return names.sorted()
    }
}
