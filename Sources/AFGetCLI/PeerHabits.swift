/// Flags people bring from curl, wget and aria2c that afget would refuse with a puzzle
/// (wget's `-qO-` is "Unknown option '--'") or, worse, read as something else (aria2c's `-x 4`
/// a proxy at 0.0.0.4, wget's `-O page.html` a second URL). The command line is read for them
/// before it is parsed, and each is answered with afget's way to say it (`PeerHabit`), as a
/// usage error. Only uses that are clearly the other tool's count: where afget has the flag too
/// (`-O`, `-x`, `-s`, `-c`, `-k`, `-m`), only when what follows it is something afget's meaning
/// could not take, so a command line afget can run is never refused here.
enum PeerHabits {
    /// The lines to print, one per habit, in the order typed; none for a command line with none.
    static func lines(for arguments: [String]) -> [String] {
        let options = arguments.prefix { $0 != "--" }
        // Help and the version read no habits: `afget -O --help` shows the help asked for.
        if options.first == "help" || options.contains(where: ["-h", "--help", "--version"].contains) { return [] }
        let named = options.first.flatMap(PeerHabit.Command.init(rawValue:))
        let command = named ?? .download
        let scanner = Scanner(
            command: command,
            // A file name after wget's -O or curl's -c is told from afget's own use of the flag
            // by a URL elsewhere: in `afget -O example.org/f` the word is that URL, its scheme
            // left to be assumed.
            hasURL: arguments.contains(where: isURL) || options.contains { $0 == "-i" || $0.hasPrefix("--input-file") })
        return scanner.habits(in: named == nil ? options : options.dropFirst()).map { $0.line(in: command) }
    }

    static func isURL(_ word: String) -> Bool {
        let lowered = word.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || TypedURL.isHostAndPath(word)
    }

    /// afget's short flags and short options that take a value, by command (the tests check
    /// them against the parser's own description of each command).
    static func letters(of command: PeerHabit.Command) -> (flags: Set<Character>, values: Set<Character>) {
        switch command {
        case .download:
            (
                ["O", "J", "L", "v", "k", "c", "q", "h", "f", "S", "r", "p"],
                ["o", "d", "P", "i", "j", "s", "H", "m", "x", "A", "u", "l", "R", "D", "e"]
            )
        case .resume: (["L", "v", "k", "c", "q", "h"], ["j", "s", "H", "m", "x", "A", "u"])
        case .request: (["i", "L", "v", "k", "h"], ["d", "o", "H", "m", "x", "A", "u"])
        case .upload: (["L", "v", "k", "q", "h", "r"], ["H", "m", "x", "A", "u", "s"])
        }
    }

    private struct Scanner {
        let command: PeerHabit.Command
        let hasURL: Bool

        func habits(in words: ArraySlice<String>) -> [PeerHabit] {
            var found: [PeerHabit] = []
            // A recursive download's line: there wget's -A is a list of names, not a user agent.
            let crawls = command == .download && words.contains { ["-r", "--recursive", "-p", "--page-requisites"].contains($0) }
            var typesK = false
            // wget's flags that afget takes as they are (`HabitualFlags`): beside one, a `-k` is wget's too.
            var typesWgetFlag = false
            for index in words.indices {
                let word = words[index]
                typesWgetFlag =
                    typesWgetFlag || command == .download && Self.wgetFlagsTaken.contains(word)
                let next = index + 1 < words.endIndex ? words[index + 1] : nil
                if word.hasPrefix("--") {
                    found += longHabit(word, next: next).map { [$0] } ?? []
                } else if word.hasPrefix("-"), word.count > 1 {
                    found += shortHabits(word, next: next, crawls: crawls)
                    typesK = typesK || isCluster(word) && word.contains("k")
                }
            }
            // wget's -k converts links; afget's turns certificate checks off.
            if typesK, typesWgetFlag || found.contains(where: \.isWget), !found.contains(where: { $0.typed.hasPrefix("-k") }) {
                found.append(PeerHabit(typed: "-k", kind: .insecureIsNotConvertLinks))
            }
            return found
        }

        /// wget's flags afget's download takes as wget means them.
        private static let wgetFlagsTaken: Set<String> = [
            "-nc", "--no-clobber", "--show-progress", "-r", "--recursive", "-np", "--no-parent", "-nd", "-nH", "-p",
            "--page-requisites",
        ]

        private func isCluster(_ word: String) -> Bool {
            word.dropFirst().allSatisfy { $0.isASCII && $0.isLetter }
        }

        private func longHabit(_ word: String, next: String?) -> PeerHabit? {
            let parts = word.split(separator: "=", maxSplits: 1)
            let name = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]) : next
            let typedWithValue = parts.count > 1 || value == nil ? word : "\(word) \(value!)"
            func habit(_ kind: PeerHabit.Kind, showingValue: Bool = false) -> PeerHabit {
                PeerHabit(typed: showingValue ? typedWithValue : word, kind: kind)
            }
            // afget's download takes these as they are (`HabitualFlags`): they mean what it does anyway.
            if command == .download && ["--no-clobber", "--show-error", "--fail"].contains(name) { return nil }
            switch name {
            case "--tries": return habit(.tries(value.flatMap { Int($0) }), showingValue: isCount(value))
            case "--timestamping": return habit(.timestamping)
            case "--no-clobber": return habit(.noClobber)
            case "--continue-at": return habit(.continueAt, showingValue: value == "-" || isCount(value))
            case "--silent": return habit(.silent)
            case "--show-error": return habit(.showError)
            case "--fail", "--fail-with-body": return habit(.fail)
            case "--max-connection-per-server": return habit(.connectionsPerServer(value ?? "N"), showingValue: isCount(value))
            case "--load-cookies", "--save-cookies": return habit(.cookieJar)
            case "--no-check-certificate": return habit(.noCertificateCheck)
            case "--recursive", "--page-requisites", "--convert-links", "--no-parent", "--level":
                // The download command's own options; no other command follows links.
                return command == .download ? nil : habit(.crawl(maxTime: false))
            case "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "--json", "--form",
                "--form-string":
                // All but the last two are afget request's own (or refused there by the parser).
                return command == .request ? nil : habit(.requestBody(name))
            case "--request": return habit(.method(methodName(value)), showingValue: methodName(value) != nil)
            case "--upload-file": return habit(.uploadFile)
            case "--timeout": return habit(.timeout)
            case "--head": return habit(.head)
            case "--output-document": return habit(value == "-" ? .outputToStandardOutput : .outputFile, showingValue: true)
            case "--directory-prefix": return habit(.directoryPrefix)
            case "--parallel", "--parallel-max", "--max-concurrent-downloads": return habit(.parallel)
            case "--retry-connrefused": return habit(.retryRefused)
            case "--parallel-max-host": return habit(.maxPerHost)
            default: return nil
            }
        }

        private func shortHabits(_ word: String, next: String?, crawls: Bool) -> [PeerHabit] {
            switch word {
            case "-nc": return command == .download ? [] : [PeerHabit(typed: word, kind: .noClobber)]
            case "-np", "-nd", "-nH": return command == .download ? [] : [PeerHabit(typed: word, kind: .crawl(maxTime: false))]
            // wget's -H takes no value: a URL or another option after it is no header.
            case "-H" where command == .download && (next.map { isURL($0) || $0.hasPrefix("-") } ?? true):
                return [PeerHabit(typed: word, kind: .spanHosts)]
            case "-A" where crawls && next.map(isNameList) == true:
                return [PeerHabit(typed: "-A \(next!)", kind: .acceptList(next!))]
            default: break
            }
            let letters = Array(word.dropFirst())
            // `-O-`, `-qO-`: wget's letters, with the file "-" written against them.
            if letters.count >= 2, letters.suffix(2) == ["O", "-"], letters.dropLast().allSatisfy(\.isLetter) {
                return [PeerHabit(typed: word, kind: .outputToStandardOutput)]
            }
            // `-d/tmp/x`, `-xhttp://proxy:3128`: a value against its option (the parser would read
            // its letters as flags: the `h` of `http` asks for help).
            if let first = letters.first, PeerHabits.letters(of: command).values.contains(first), letters.count > 1,
                letters.dropFirst().contains(where: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
            {
                return [
                    PeerHabit(typed: word, kind: .attachedValue(letter: first, value: String(letters.dropFirst())))
                ]
            }
            guard letters.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }), letters.first?.isLetter == true else {
                return []
            }
            var found: [PeerHabit] = []
            for (position, letter) in letters.enumerated() where letter.isLetter {
                let rest = String(letters[(position + 1)...])
                // The value a letter at the end of the word takes: the next word.
                let value = rest.isEmpty ? next : nil
                if PeerHabits.letters(of: command).values.contains(letter) {
                    found += valueLetterHabits(letter, rest: rest, value: value)
                    // The rest of the word is the value afget's parser would look for.
                    if !(letter == "s" && !rest.isEmpty && !isCount(rest)) { break }
                } else if PeerHabits.letters(of: command).flags.contains(letter) {
                    if let habit = flagLetterHabit(letter, value: value) { found.append(habit) }
                } else if let habit = unknownLetterHabit(letter, rest: rest, value: value) {
                    found.append(habit)
                    if isCount(rest) { break }
                }
            }
            return found
        }

        /// A letter afget reads as an option taking a value: `-x 4` (aria2c's count, never a
        /// proxy), `-s` followed by no count (curl's silent), `-m URL` (wget's mirror), `-j8`.
        private func valueLetterHabits(_ letter: Character, rest: String, value: String?) -> [PeerHabit] {
            switch letter {
            case "x" where isCount(rest):
                return [PeerHabit(typed: "-x\(rest)", kind: .connectionsPerServer(rest))]
            case "x" where rest.isEmpty && isCount(value):
                return [PeerHabit(typed: "-x \(value!)", kind: .connectionsPerServer(value!))]
            case "s" where rest.isEmpty ? !isCount(value) : !isCount(rest):
                return [PeerHabit(typed: "-s", kind: .silent)]
            case "m" where rest.isEmpty && (value.flatMap(Double.init) == nil):
                return [PeerHabit(typed: "-m", kind: .crawl(maxTime: true))]
            case _ where isCount(rest):
                return [PeerHabit(typed: "-\(letter)\(rest)", kind: .attachedValue(letter: letter, value: rest))]
            default:
                return []
            }
        }

        /// A flag afget has too, followed by what only the other tool's meaning takes: wget's
        /// `-O page.html`, curl's `-c cookies.txt`, aria2c's `-k 1M`. Each word afget's own
        /// meaning leaves for a URL must be one, so these never refuse a command line afget runs.
        private func flagLetterHabit(_ letter: Character, value: String?) -> PeerHabit? {
            guard let value else { return nil }
            switch letter {
            case "O" where value == "-":
                return PeerHabit(typed: "-O -", kind: .outputToStandardOutput)
            case "O" where takesAsFileName(value):
                return PeerHabit(typed: "-O \(value)", kind: .outputFile)
            case "c" where takesAsFileName(value):
                return PeerHabit(typed: "-c \(value)", kind: .cookieJar)
            case "k" where command == .download && ByteCount(argument: value) != nil:
                return PeerHabit(typed: "-k \(value)", kind: .minSplitSize(value))
            default:
                return nil
            }
        }

        /// A word the other tool takes as a file name and afget would take for a URL: not an
        /// option, not a URL, and with a URL elsewhere on the line.
        private func takesAsFileName(_ value: String) -> Bool {
            command == .download && hasURL && !value.hasPrefix("-") && !isURL(value)
        }

        /// A letter this afget command does not have at all.
        private func unknownLetterHabit(_ letter: Character, rest: String, value: String?) -> PeerHabit? {
            let count = isCount(rest) ? rest : value
            switch letter {
            case "t":
                return PeerHabit(
                    typed: isCount(rest) ? "-t\(rest)" : isCount(value) ? "-t \(value!)" : "-t",
                    kind: .tries(count.flatMap { Int($0) }))
            case "N": return PeerHabit(typed: "-N", kind: .timestamping)
            case "C": return PeerHabit(typed: value == "-" || isCount(value) ? "-C \(value!)" : "-C", kind: .continueAt)
            case "s": return PeerHabit(typed: "-s", kind: .silent)
            case "S": return PeerHabit(typed: "-S", kind: .showError)
            case "f": return PeerHabit(typed: "-f", kind: .fail)
            case "c": return PeerHabit(typed: "-c", kind: .cookieJar)
            case "b": return PeerHabit(typed: "-b", kind: .cookie)
            case "r", "p": return PeerHabit(typed: "-\(letter)", kind: .crawl(maxTime: false))
            case "X": return PeerHabit(typed: methodName(value).map { "-X \($0)" } ?? "-X", kind: .method(methodName(value)))
            case "T" where isCount(value): return PeerHabit(typed: "-T \(value!)", kind: .timeout)
            case "T": return PeerHabit(typed: value.map { "-T \($0)" } ?? "-T", kind: .uploadFile)
            case "I": return PeerHabit(typed: "-I", kind: .head)
            case "U": return PeerHabit(typed: "-U", kind: .userAgent)
            case "Z": return PeerHabit(typed: "-Z", kind: .parallel)
            case "F": return PeerHabit(typed: "-F", kind: .requestBody("-F"))
            case "O" where command == .request: return PeerHabit(typed: "-O", kind: .outputFile)
            default: return nil
            }
        }

        /// wget's `-A` list (`*.iso`, `pdf,iso`): globs or suffixes, never a user agent, which
        /// names a product and its version (`name/1.0`).
        private func isNameList(_ word: String) -> Bool {
            !word.isEmpty && !word.contains("/") && !word.contains(" ")
                && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "*?[].,_-".contains($0)) }
        }

        /// `POST` in `-X POST`; nil for a word that is no method.
        private func methodName(_ word: String?) -> String? {
            guard let word, !word.isEmpty, word.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
            return word.uppercased()
        }

        private func isCount(_ text: String?) -> Bool {
            guard let text, !text.isEmpty else { return false }
            return text.allSatisfy { $0.isASCII && $0.isNumber }
        }

        private func isURL(_ word: String) -> Bool { PeerHabits.isURL(word) }
    }
}
