import CLibXML2

/// libxml2 reports what it cannot read (bytes a page's own charset cannot decode, a document
/// cut short) by writing lines of its own to stderr, past afget's renderers and their sanitizer,
/// even under `-q`. afget's readers recover from such input and say what matters in their own
/// words, so the library's lines are dropped. Its error handler is per thread: each reader
/// calls this before parsing, on the thread it parses on.
enum LibXML2Errors {
    static func silence() {
        xmlSetStructuredErrorFunc(nil) { _, _ in }
    }
}
