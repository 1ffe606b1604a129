import AFGetRequest
import AFGetSupport
import Glibc

/// Finds what `afget resume PATH...` continues: each `.afresume` file named, and every one in a
/// directory named; without a path, those in the current directory, else those in the
/// directories below it that hold some (`ResumeSearch`). The destination is the resume file's own path without the suffix (or with
/// the long name it stands for), so a moved directory still resumes in place.
public enum ResumeDiscovery {
    public struct Found: Sendable {
        public var items: [DownloadItem] = []
        /// Resume files that cannot be used, each naming the file and the cause.
        public var failures: [ItemFailure] = []
        /// Without a path, the current directory held none: the directories below it whose
        /// resume files these are (empty when none held any either).
        public var foundBelow: [String] = []
    }

    /// How far below the current directory `afget resume` looks when it holds no resume data.
    public static var searchDepth: Int { ResumeSearch.depth }

    /// `replacementURL` continues the (single) resume file against a new URL. The recorded
    /// request headers are replayed, except those `commandHeaders` give again.
    public static func find(_ paths: [String], replacementURL: String?, commandHeaders: [HTTPHeader] = []) -> Found {
        let here = find(given: paths.isEmpty ? ["."] : paths, replacementURL: replacementURL, commandHeaders: commandHeaders)
        guard paths.isEmpty, here.items.isEmpty, here.failures.isEmpty else { return here }
        let below = ResumeSearch.directoriesHoldingResumeData(below: ".")
        guard !below.isEmpty else { return here }
        var found = find(given: below, replacementURL: replacementURL, commandHeaders: commandHeaders)
        found.foundBelow = below
        return found
    }

    private static func find(given paths: [String], replacementURL: String?, commandHeaders: [HTTPHeader]) -> Found {
        let givenAgain = Set(commandHeaders.map { $0.name.lowercased() })
        var found = Found()
        var resumeFiles: [String] = []
        for path in paths {
            if fileKind(at: path, followingSymlinks: true) == S_IFDIR {
                do {
                    let listed = try listResumeFiles(in: path)
                    resumeFiles += listed.names
                    found.failures += listed.notUTF8.map {
                        ItemFailure(
                            item: $0,
                            TransferFailure(.file(.nameNotUTF8)))
                    }
                } catch {
                    found.failures.append(ItemFailure(item: path, error))
                }
            } else if path.hasSuffix(ResumeStore.suffix) {
                resumeFiles.append(path)
            } else if fileKind(at: path) == nil {
                found.failures.append(ItemFailure(item: path, TransferFailure(.file(.noSuchPath))))
            } else {
                found.failures.append(
                    ItemFailure(item: path, TransferFailure(.input(.notResumeData(suffix: ResumeStore.suffix)))))
            }
        }
        if replacementURL != nil && resumeFiles.count != 1 {
            found.failures.append(
                ItemFailure(item: "--url", TransferFailure(.input(.replacementURLNeedsOneResumeFile(found: resumeFiles.count)))))
            return found
        }
        for file in resumeFiles {
            let stem = String(file.dropLast(ResumeStore.suffix.count))
            var destination = stem
            do {
                guard let data = try ResumeStore(destination: stem).load() else {
                    found.failures.append(ItemFailure(item: file, TransferFailure(.file(.noSuchFile))))
                    continue
                }
                destination = self.destination(recordedIn: data, stem: stem)
                let replayed = data.headers.compactMap { try? HTTPHeader.parse($0) }
                    .filter { !givenAgain.contains($0.name.lowercased()) }
                found.items.append(
                    DownloadItem(
                        index: found.items.count, url: replacementURL ?? data.url, output: .path(destination),
                        replacesURL: replacementURL == nil ? nil : data.url, headers: replayed,
                        takesServerName: data.takesServerName,
                        // The file's other sources, as recorded; none against a URL given instead.
                        mirrors: replacementURL == nil ? data.sources : []))
            } catch  where error.kind == .resumeConflict {
                // Without usable resume data there is no URL to continue from.
                found.failures.append(
                    ItemFailure(
                        item: destination,
                        error.noting(.startOverWithTheFirstCommand)))
            } catch {
                found.failures.append(ItemFailure(item: destination, error))
            }
        }
        return found
    }

    /// The destination beside the resume file: its name without the suffix, or the recorded
    /// destination's name when the resume file is named after that name shortened (too long
    /// for `NAME.afresume` to fit).
    private static func destination(recordedIn data: ResumeData, stem: String) -> String {
        let recorded = splitPath(data.destination).name
        let stemName = splitPath(stem).name
        guard recorded != stemName, splitPath(FileNaming.workingFileStem(for: recorded)).name == stemName else { return stem }
        return String(decoding: stem.utf8.dropLast(stemName.utf8.count), as: UTF8.self) + recorded
    }

    /// The resume files in `directory`, and those whose names are not UTF-8 (shown with U+FFFD),
    /// which could not be named exactly again. A directory that cannot be read is a failure, not
    /// "nothing to resume": a script would take that for done.
    private static func listResumeFiles(in directory: String) throws(TransferFailure) -> (names: [String], notUTF8: [String]) {
        guard let handle = opendir(directory) else {
            let code = errno
            throw TransferFailure(.file(.unreadableDirectory(errno: code)))
        }
        defer { closedir(handle) }
        let suffix = Array(ResumeStore.suffix.utf8)
        var names: [String] = []
        var notUTF8: [String] = []
        while let entry = readdir(handle) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            guard bytes.count > suffix.count, bytes.suffix(suffix.count).elementsEqual(suffix) else { continue }
            if let name = String(validating: bytes, as: UTF8.self) {
                names.append(joinPath(directory, name))
            } else {
                notUTF8.append(joinPath(directory, String(decoding: bytes, as: UTF8.self)))
            }
        }
        return (names.sorted(), notUTF8.sorted())
    }
}
