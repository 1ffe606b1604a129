import AFGetRequest
import CurlCore
import FoundationEssentials

@testable import AFGetKit

/// Resume data (`DEST.afresume`), which a crash may have cut short or someone else may have
/// written: read, it holds values a download can act on; written again, it reads back the same.
enum ResumeDataTarget: FuzzTarget {
    static let name = "resume-data"

    static func fuzz(_ input: [UInt8]) {
        let resume: ResumeData
        do {
            resume = try ResumeData(propertyList: Data(input))
        } catch {
            expect(!error.reason.isEmpty, "refused without a reason")
            return
        }
        expect(resume.version >= 1 && resume.version <= ResumeData.currentVersion, "format \(resume.version)")
        let scheme = resume.url.lowercased().prefix { $0 != ":" }
        expect(
            scheme == "http" || scheme == "https" || CurlURL.remoteFileSchemes.contains(String(scheme)),
            "a resume of \(resume.url)")
        expect((0..<ResumeData.absurdByteCount).contains(resume.bytesReceived), "\(resume.bytesReceived) bytes received")
        expect(!resume.tempFileName.isEmpty && !resume.tempFileName.contains("/"), "part file \(resume.tempFileName)")
        expect(![".", ".."].contains(resume.tempFileName), "part file \(resume.tempFileName)")
        if let length = resume.expectedLength {
            expect(length >= resume.bytesReceived, "\(resume.bytesReceived) bytes of \(length)")
        }
        var end: Int64 = 0
        for segment in resume.segments {
            expect(segment.start >= end && segment.start < segment.end, "segment \(segment) out of order")
            expect(segment.done >= 0 && segment.done <= segment.end - segment.start, "segment \(segment) overfull")
            expect(segment.end <= resume.expectedLength ?? -1, "segment \(segment) beyond the file")
            end = segment.end
        }
        for source in resume.sources {
            let scheme = source.lowercased().prefix { $0 != ":" }
            expect(
                scheme == "http" || scheme == "https" || CurlURL.remoteFileSchemes.contains(String(scheme)),
                "a source \(source)")
        }
        var reached: Int64 = 0
        for run in resume.sourceRanges.runs {
            expect(!run.source.isEmpty, "a range of no source: \(run)")
            expect(run.start >= reached && run.start < run.end, "range \(run) out of order")
            expect(run.end <= resume.expectedLength ?? -1, "range \(run) beyond the file")
            reached = run.end
        }
        for header in resume.headers {
            expect(!HeaderMasking.mayHoldSecret(header.prefix { $0 != ":" }), "a header that may hold a secret: \(header)")
        }
        // Written by this afget, it reads back as the same resume data.
        do {
            let again = try ResumeData(propertyList: resume.propertyList())
            expect(again == resume, "written and read back, it changed: \(again) for \(resume)")
        } catch {
            expect(false, "written by afget, refused: \(error.reason)")
        }
    }
}
