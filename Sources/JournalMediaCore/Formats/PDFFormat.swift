/// PDF: its first page rendered at the size asked for.
struct PDFFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(
        .pdf, mediaType: "application/pdf", suffixes: ["pdf"], kind: .vector, still: StillLoading(loader: "pdfload_buffer"))]

    func sniff(_ head: SniffHead) -> SniffVerdict? { head.starts(with: "%PDF-") ? .format(.pdf) : nil }
}
