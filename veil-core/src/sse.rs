//! Incremental framing of response streams: server-sent events and streamed JSON arrays.
//!
//! Bytes arrive in arbitrary chunks; these splitters hand out complete events (or
//! array elements) as raw byte ranges, so the restorer can rewrite one text field
//! and pass every other byte through unchanged. SSE follows the WHATWG rules: lines
//! end with LF, CRLF or CR; a blank line ends an event; `:` starts a comment; several
//! `data:` lines join with LF. [`Framer`] is a response's one framer: whichever of the
//! two its stream needs.

/// Splits an SSE byte stream into raw events (each including its blank line).
#[derive(Debug, Default)]
pub struct SseSplitter {
    buf: Vec<u8>,
    /// Where to resume looking for the end of the current event.
    scan: usize,
}

impl SseSplitter {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Bytes received but not yet part of a complete event.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// The next complete event, or `None` until more bytes arrive.
    pub fn next_event(&mut self) -> Option<Vec<u8>> {
        let mut line_start = self.scan;
        let mut i = self.scan;
        while i < self.buf.len() {
            let b = self.buf.get(i).copied().unwrap_or(0);
            if b == b'\n' || b == b'\r' {
                // A CR at the very end may be the first half of a CRLF: wait.
                if b == b'\r' && i + 1 == self.buf.len() {
                    self.scan = line_start;
                    return None;
                }
                let eol = if b == b'\r' && self.buf.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                let empty_line = i == line_start;
                i += eol;
                if empty_line {
                    let event: Vec<u8> = self.buf.drain(..i).collect();
                    self.scan = 0;
                    return Some(event);
                }
                line_start = i;
            } else {
                i += 1;
            }
        }
        self.scan = line_start;
        None
    }

    /// Whatever is left at the end of the stream (an event without its blank line).
    pub fn take_rest(&mut self) -> Vec<u8> {
        self.scan = 0;
        std::mem::take(&mut self.buf)
    }
}

/// One `data:` line of an event: where its value sits in the raw event and in the
/// joined data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct DataLine {
    raw_start: usize,
    data_start: usize,
    len: usize,
}

/// A parsed SSE event, borrowing the raw bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `data` lines joined with LF (`None` when the event has no data).
    pub data: Option<Vec<u8>>,
    lines: Vec<DataLine>,
}

impl SseEvent {
    pub fn parse(raw: &[u8]) -> SseEvent {
        let mut data: Option<Vec<u8>> = None;
        let mut lines = Vec::new();
        let mut at = 0;
        while at < raw.len() {
            let rest = raw.get(at..).unwrap_or_default();
            let len = rest.iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(rest.len());
            let line = rest.get(..len).unwrap_or_default();
            if let Some(value) = line.strip_prefix(b"data") {
                let (value, skip) = match value {
                    [b':', b' ', tail @ ..] => (tail, 6),
                    [b':', tail @ ..] => (tail, 5),
                    [] => (value, 4),
                    _ => (&[][..], usize::MAX), // `dataX:` is another field
                };
                if skip != usize::MAX {
                    let joined = data.get_or_insert_with(Vec::new);
                    if !lines.is_empty() {
                        joined.push(b'\n');
                    }
                    lines.push(DataLine { raw_start: at + skip, data_start: joined.len(), len: value.len() });
                    joined.extend_from_slice(value);
                }
            }
            at += len;
            if raw.get(at) == Some(&b'\r') {
                at += 1;
            }
            if raw.get(at) == Some(&b'\n') {
                at += 1;
            }
        }
        SseEvent { data, lines }
    }

    /// Maps a range of the joined data to the raw event. `None` when it crosses a
    /// line break (a JSON string never does).
    pub fn raw_range(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        let line = self.lines.iter().find(|l| l.data_start <= start && start <= l.data_start + l.len)?;
        if end > line.data_start + line.len {
            return None;
        }
        Some((line.raw_start + (start - line.data_start), line.raw_start + (end - line.data_start)))
    }
}

/// A piece of a streamed JSON array (`[{…},\r\n{…}]`, as Gemini sends without `alt=sse`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArrayPiece {
    /// Brackets, commas and whitespace between elements, passed through as they are.
    Between(Vec<u8>),
    /// One complete element.
    Element(Vec<u8>),
    /// The closing `]` and anything after it.
    Close(Vec<u8>),
}

/// Splits a streamed JSON array into its elements, incrementally.
#[derive(Debug, Default)]
pub struct ArraySplitter {
    buf: Vec<u8>,
    /// How far into `buf` the current piece has been scanned.
    pos: usize,
    state: ArrayState,
    opened: bool,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum ArrayState {
    #[default]
    Between,
    Element {
        depth: usize,
        in_string: bool,
        escaped: bool,
    },
    Closed,
}

impl ArraySplitter {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    fn emit(&mut self, make: fn(Vec<u8>) -> ArrayPiece) -> Option<ArrayPiece> {
        let piece: Vec<u8> = self.buf.drain(..self.pos).collect();
        self.pos = 0;
        Some(make(piece))
    }

    /// The next piece, or `None` until more bytes arrive.
    pub fn next_piece(&mut self) -> Option<ArrayPiece> {
        loop {
            match self.state {
                ArrayState::Closed => {
                    self.pos = self.buf.len();
                    return if self.pos > 0 { self.emit(ArrayPiece::Close) } else { None };
                }
                ArrayState::Between => {
                    let Some(&b) = self.buf.get(self.pos) else {
                        return if self.pos > 0 { self.emit(ArrayPiece::Between) } else { None };
                    };
                    match b {
                        b'[' if !self.opened => {
                            self.opened = true;
                            self.pos += 1;
                        }
                        b' ' | b'\t' | b'\r' | b'\n' | b',' => self.pos += 1,
                        b']' => {
                            if self.pos > 0 {
                                return self.emit(ArrayPiece::Between);
                            }
                            self.state = ArrayState::Closed;
                        }
                        _ => {
                            if self.pos > 0 {
                                return self.emit(ArrayPiece::Between);
                            }
                            self.state = ArrayState::Element { depth: 0, in_string: false, escaped: false };
                        }
                    }
                }
                ArrayState::Element { mut depth, mut in_string, mut escaped } => {
                    while let Some(&b) = self.buf.get(self.pos) {
                        if in_string {
                            self.pos += 1;
                            if escaped {
                                escaped = false;
                            } else if b == b'\\' {
                                escaped = true;
                            } else if b == b'"' {
                                in_string = false;
                                if depth == 0 {
                                    self.state = ArrayState::Between;
                                    return self.emit(ArrayPiece::Element);
                                }
                            }
                            continue;
                        }
                        match b {
                            b'"' => in_string = true,
                            b'{' | b'[' => depth += 1,
                            b'}' | b']' if depth > 0 => {
                                depth -= 1;
                                if depth == 0 {
                                    self.pos += 1;
                                    self.state = ArrayState::Between;
                                    return self.emit(ArrayPiece::Element);
                                }
                            }
                            b',' | b']' | b' ' | b'\t' | b'\r' | b'\n' if depth == 0 => {
                                // The end of a scalar element.
                                self.state = ArrayState::Between;
                                return self.emit(ArrayPiece::Element);
                            }
                            _ => {}
                        }
                        self.pos += 1;
                    }
                    self.state = ArrayState::Element { depth, in_string, escaped };
                    return None;
                }
            }
        }
    }

    pub fn take_rest(&mut self) -> Vec<u8> {
        self.pos = 0;
        std::mem::take(&mut self.buf)
    }
}

/// How a response stream is framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `text/event-stream` (every vendor; Gemini with `alt=sse`).
    Sse,
    /// A JSON array delivered incrementally (Gemini `streamGenerateContent` without `alt=sse`).
    JsonArray,
    /// JSON Lines (`application/x-ndjson`, `application/jsonl`): one JSON value per line.
    Lines,
}

/// One complete piece of a framed response stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// An SSE event, its blank line included.
    Event(Vec<u8>),
    /// A piece of a streamed JSON array.
    Array(ArrayPiece),
}

/// The one framer of a response stream: SSE events or JSON array pieces, as framed.
#[derive(Debug)]
pub enum Framer {
    Sse(SseSplitter),
    Array(ArraySplitter),
    Lines(LineSplitter),
}

/// Splits JSON Lines into lines, incrementally: each line's bytes as an element, its
/// line end (`\n` or `\r\n`) and blank lines as what lies between.
#[derive(Debug, Default)]
pub struct LineSplitter {
    buf: Vec<u8>,
    /// The line end of the line just given, still to give.
    end: Option<Vec<u8>>,
}

impl LineSplitter {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    pub fn next_piece(&mut self) -> Option<ArrayPiece> {
        if let Some(end) = self.end.take() {
            return Some(ArrayPiece::Between(end));
        }
        let newline = memchr::memchr(b'\n', &self.buf)?;
        let mut line: Vec<u8> = self.buf.drain(..=newline).collect();
        let cut = if line.ends_with(b"\r\n") { line.len() - 2 } else { line.len() - 1 };
        let end = line.split_off(cut);
        if line.trim_ascii().is_empty() {
            line.extend(end);
            return Some(ArrayPiece::Between(line));
        }
        self.end = Some(end);
        Some(ArrayPiece::Element(line))
    }

    pub fn buffered(&self) -> usize {
        self.buf.len() + self.end.as_ref().map_or(0, Vec::len)
    }

    pub fn take_rest(&mut self) -> Vec<u8> {
        let mut rest = self.end.take().unwrap_or_default();
        rest.append(&mut self.buf);
        rest
    }
}

impl Framer {
    pub fn new(framing: Framing) -> Framer {
        match framing {
            Framing::Sse => Framer::Sse(SseSplitter::default()),
            Framing::JsonArray => Framer::Array(ArraySplitter::default()),
            Framing::Lines => Framer::Lines(LineSplitter::default()),
        }
    }

    pub fn framing(&self) -> Framing {
        match self {
            Framer::Sse(_) => Framing::Sse,
            Framer::Array(_) => Framing::JsonArray,
            Framer::Lines(_) => Framing::Lines,
        }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        match self {
            Framer::Sse(s) => s.push(bytes),
            Framer::Array(a) => a.push(bytes),
            Framer::Lines(l) => l.push(bytes),
        }
    }

    /// The next complete piece, or `None` until more bytes arrive.
    pub fn next_frame(&mut self) -> Option<Frame> {
        match self {
            Framer::Sse(s) => s.next_event().map(Frame::Event),
            Framer::Array(a) => a.next_piece().map(Frame::Array),
            Framer::Lines(l) => l.next_piece().map(Frame::Array),
        }
    }

    /// Bytes received but not yet part of a complete piece.
    pub fn buffered(&self) -> usize {
        match self {
            Framer::Sse(s) => s.buffered(),
            Framer::Array(a) => a.buffered(),
            Framer::Lines(l) => l.buffered(),
        }
    }

    /// Whatever is left at the end of the stream (an incomplete event or element).
    pub fn take_rest(&mut self) -> Vec<u8> {
        match self {
            Framer::Sse(s) => s.take_rest(),
            Framer::Array(a) => a.take_rest(),
            Framer::Lines(l) => l.take_rest(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_all(input: &[u8], chunk: usize) -> (Vec<Vec<u8>>, Vec<u8>) {
        let mut s = SseSplitter::default();
        let mut events = Vec::new();
        for piece in input.chunks(chunk.max(1)) {
            s.push(piece);
            while let Some(e) = s.next_event() {
                events.push(e);
            }
        }
        (events, s.take_rest())
    }

    #[test]
    fn splits_on_every_line_ending_at_any_chunking() {
        let input = b"data: a\n\nevent: x\r\ndata: b\r\n\r\n: comment\rdata: c\r\rdata: tail";
        for chunk in 1..input.len() {
            let (events, rest) = split_all(input, chunk);
            assert_eq!(
                events,
                vec![
                    b"data: a\n\n".to_vec(),
                    b"event: x\r\ndata: b\r\n\r\n".to_vec(),
                    b": comment\rdata: c\r\r".to_vec()
                ],
                "chunk {chunk}"
            );
            assert_eq!(rest, b"data: tail");
        }
    }

    #[test]
    fn parses_data_lines_and_maps_ranges() {
        let raw = b"event: delta\r\ndata: {\"a\":\r\ndata:\"xyz\"}\r\n\r\n";
        let e = SseEvent::parse(raw);
        let data = e.data.clone().unwrap();
        assert_eq!(data, b"{\"a\":\n\"xyz\"}");
        let start = data.iter().position(|&b| b == b'x').unwrap();
        let (rs, re) = e.raw_range(start, start + 3).unwrap();
        assert_eq!(&raw[rs..re], b"xyz");
        assert_eq!(e.raw_range(0, data.len()), None);
        assert_eq!(SseEvent::parse(b": ping\n\n").data, None);
        assert_eq!(SseEvent::parse(b"data\n\n").data, Some(Vec::new()));
    }

    #[test]
    fn splits_a_json_array_at_any_chunking() {
        let input = b"[{\"a\":\"x]}\\\"\"}\n,\r\n{\"b\":[1,{\"c\":2}]}\n]";
        for chunk in 1..=input.len() {
            let mut s = ArraySplitter::default();
            let mut pieces = Vec::new();
            for piece in input.chunks(chunk) {
                s.push(piece);
                while let Some(p) = s.next_piece() {
                    pieces.push(p);
                }
            }
            let elements: Vec<_> = pieces
                .iter()
                .filter_map(|p| match p {
                    ArrayPiece::Element(e) => Some(e.clone()),
                    _ => None,
                })
                .collect();
            assert_eq!(
                elements,
                vec![b"{\"a\":\"x]}\\\"\"}".to_vec(), b"{\"b\":[1,{\"c\":2}]}".to_vec()],
                "chunk {chunk}"
            );
            let joined: Vec<u8> = pieces
                .iter()
                .flat_map(|p| match p {
                    ArrayPiece::Between(b) | ArrayPiece::Element(b) | ArrayPiece::Close(b) => b.clone(),
                })
                .collect();
            assert_eq!(joined, input.to_vec(), "chunk {chunk}");
            assert!(matches!(pieces.last(), Some(ArrayPiece::Close(_))), "chunk {chunk}");
        }
    }
}
