import CLibXML2

/// An S3 answer's XML (a listing page, an error) read with libxml2, the network, DTDs and
/// entities off; elements matched by local name, whatever namespace the store declares (AWS
/// declares one, some stores none).
struct S3XML: ~Copyable {
    private let document: xmlDocPtr

    /// Nil for bytes that are not well-formed XML.
    init?(_ bytes: [UInt8]) {
        xmlInitParser()
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, Int32(buffer.count), nil, nil, Int32(options))
                }
            }
        }
        guard let parsed else { return nil }
        document = parsed
    }

    deinit { xmlFreeDoc(document) }

    /// The root element, when its local name is `name`.
    func root(named name: String) -> Element? {
        guard let root = xmlDocGetRootElement(document), Element(root).name == name else { return nil }
        return Element(root)
    }

    /// An element read in place; valid while its document is.
    struct Element {
        let node: xmlNodePtr

        init(_ node: xmlNodePtr) {
            self.node = node
        }

        var name: String { String(cString: node.pointee.name) }

        /// Child elements named `name`, in order.
        func children(named name: String) -> [Element] {
            var found: [Element] = []
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE, Element(current).name == name { found.append(Element(current)) }
                child = current.pointee.next
            }
            return found
        }

        /// The text of the first child named `name`, nil when there is none.
        func text(of name: String) -> String? {
            children(named: name).first?.text
        }

        /// Its text and CDATA, joined (entities are not expanded).
        var text: String {
            var bytes: [UInt8] = []
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
                    var cursor = current.pointee.content
                {
                    while cursor.pointee != 0 {
                        bytes.append(cursor.pointee)
                        cursor += 1
                    }
                }
                child = current.pointee.next
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
