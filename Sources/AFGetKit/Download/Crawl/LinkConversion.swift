/// `-k` on one document's bytes: each link's text replaced by what `LinkRewriter` makes of it,
/// every other byte kept. In HTML only the values of the link attributes change (a `srcset`'s,
/// a `style`'s or a refresh's in their URLs alone) and the URLs of `<style>` elements; in CSS
/// only the text of `url()` and `@import`.
enum LinkConversion {
    /// The document rewritten; nil when no link of it changes. `pageURL` is the URL the page
    /// came from, against which its `<base href>` is resolved.
    static func converted(
        _ bytes: [UInt8], kind: CrawlDocument.Kind, charset: String?, pagePath: String, pageURL: CrawlURL,
        layout: CrawlLayout, isInPlace: @escaping (String) -> Bool
    ) -> [UInt8]? {
        var rewriter = LinkRewriter(layout: layout, pagePath: pagePath, base: pageURL, isInPlace: isInPlace)
        var replacements: [(Range<Int>, [UInt8])] = []
        switch kind {
        case .css:
            replacements = styleSheet(bytes[...], offset: 0, rewriter)
        case .html:
            let spans = HTMLLinkSpans.spans(in: bytes, charset: charset)
            if let base = spans.first(where: { $0.meaning == .base }), let url = CrawlURL.normalized(base.value, base: pageURL) {
                rewriter = LinkRewriter(layout: layout, pagePath: pagePath, base: url, isInPlace: isInPlace)
            }
            for span in spans {
                if span.meaning == .styleSheet {
                    replacements += styleSheet(bytes[span.range], offset: span.range.lowerBound, rewriter)
                    continue
                }
                let changes = valueChanges(span, rewriter)
                guard !changes.isEmpty else { continue }
                // Each change made where its text is written in the page: the rest of the
                // value keeps its own spelling (`&quot;`, `&#44;`).
                let origins = StartTagText.decodedWithOrigins(bytes[span.range]).origins
                for (range, text) in changes {
                    replacements.append(
                        (origins[range.lowerBound]..<origins[range.upperBound], StartTagText.encoded(text, quote: span.quote)))
                }
            }
        }
        return replacements.isEmpty ? nil : spliced(bytes, replacements)
    }

    /// The parts of an attribute's value (in its decoded bytes) that change, and their new text.
    private static func valueChanges(_ span: HTMLLinkSpans.Span, _ rewriter: LinkRewriter) -> [(Range<Int>, String)] {
        let value = Array(span.value.utf8)
        let whole = 0..<value.count
        switch span.meaning {
        case .url:
            return rewriter.rewritten(span.value).map { [(whole, $0)] } ?? []
        case .base:
            return span.value == rewriter.ownReference ? [] : [(whole, rewriter.ownReference)]
        case .sourceSet:
            return HTMLLinks.sourceSetRanges(value).compactMap { range in
                rewriter.rewritten(String(decoding: value[range], as: UTF8.self)).map { (range, $0) }
            }
        case .inlineStyle:
            return styleSheet(value[...], offset: 0, rewriter).map { ($0.0, String(decoding: $0.1, as: UTF8.self)) }
        case .refresh:
            guard let range = HTMLLinks.refreshTargetRange(span.value),
                let target = rewriter.rewritten(String(span.value[range]))
            else { return [] }
            let utf8 = span.value.utf8
            let start = utf8.distance(from: utf8.startIndex, to: range.lowerBound)
            return [(start..<start + span.value[range].utf8.count, target)]
        case .styleSheet:
            return []
        }
    }

    /// The replacements of a style sheet's links; `offset` is where `text` starts in the
    /// document.
    private static func styleSheet(_ text: ArraySlice<UInt8>, offset: Int, _ rewriter: LinkRewriter) -> [(Range<Int>, [UInt8])] {
        CSSLinks.spans(in: Array(text)).compactMap { reference in
            rewriter.rewritten(reference.value).map { written in
                (
                    (reference.range.lowerBound + offset)..<(reference.range.upperBound + offset),
                    CSSLinks.escaped(written, quote: reference.quote)
                )
            }
        }
    }

    /// `bytes` with the replacements made, in order; one that overlaps an earlier one is left
    /// out.
    private static func spliced(_ bytes: [UInt8], _ replacements: [(Range<Int>, [UInt8])]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + bytes.count / 8)
        var kept = 0
        for (range, text) in replacements.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) where range.lowerBound >= kept {
            result += bytes[kept..<range.lowerBound]
            result += text
            kept = range.upperBound
        }
        result += bytes[kept...]
        return result
    }
}
