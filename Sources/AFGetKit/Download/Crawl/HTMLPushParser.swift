import CLibXML2

/// libxml2's HTML push parser as the crawl's readers use it (`HTMLLinks`, `HTMLLinkSpans`):
/// their SAX callbacks on `context`, recovering from any markup, no network, none of the
/// library's messages, and the response's `charset` when it gave one (else what the document
/// says). The caller frees it (`htmlFreeParserCtxt`).
enum HTMLPushParser {
    static func make(_ handler: inout htmlSAXHandler, context: UnsafeMutableRawPointer, charset: String?) -> htmlParserCtxtPtr? {
        xmlInitParser()
        LibXML2Errors.silence()
        guard let parser = htmlCreatePushParserCtxt(&handler, context, nil, 0, nil, XML_CHAR_ENCODING_NONE) else {
            return nil
        }
        _ = htmlCtxtUseOptions(
            parser,
            Int32(
                HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
                    | HTML_PARSE_NOWARNING.rawValue))
        if let charset, let encoding = xmlFindCharEncodingHandler(charset) {
            _ = xmlSwitchToEncoding(parser, encoding)
        }
        return parser
    }
}
