// `--prices-stock` reads a feed for its prices and stock alone, and most of a feed's bytes are its
// descriptions in CDATA sections. Emptied before they are decoded and parsed, they cost neither (issue 54,
// docs/performance.md): a section of `min` bytes or more keeps its markers and its line breaks (so every
// line number the import reports stays right) and loses the rest. A shorter one — a price some generator
// wrapped in CDATA — is kept whole. Comments pass as they are, whatever they hold. Works on the bytes of
// any encoding whose markup is ASCII (UTF-8, windows-1251); the reader uses it for those only.

const OPEN = Buffer.from('<![CDATA[');
const CLOSE = Buffer.from(']]>');
const COMMENT_OPEN = Buffer.from('<!--');
const COMMENT_CLOSE = Buffer.from('-->');
const NEWLINE = 0x0a;

export interface ByteFilter {
  write(chunk: Uint8Array): Uint8Array;
  end(): Uint8Array;
}

/** How many bytes at the end of `data` (from `from`) may begin `marker`: kept for the next chunk. */
function partial(data: Buffer, from: number, marker: Buffer): number {
  for (let n = Math.min(marker.length - 1, data.length - from); n > 0; n--) if (data.subarray(data.length - n).equals(marker.subarray(0, n))) return n;
  return 0;
}

type Mode = 'text' | 'comment' | 'head' | 'drop';

/**
 * The filter's state between chunks, and one step per mode: each takes the position to go on from and
 * answers the next, having set `stopped` when the rest of the chunk waits for the next one (or the end).
 */
class CDataFilter implements ByteFilter {
  private carry: Buffer = Buffer.alloc(0);
  // 'head': inside a section not yet known to reach `min` bytes.
  private mode: Mode = 'text';
  private data: Buffer = Buffer.alloc(0);
  // The output is never longer than the input: written in place, no list of parts.
  private out: Buffer = Buffer.alloc(0);
  private o = 0;
  private last = false;
  private stopped = false;
  private readonly min: number;

  constructor(min: number) {
    this.min = min;
  }

  write(chunk: Uint8Array): Uint8Array {
    return this.run(this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), false);
  }

  end(): Uint8Array {
    return this.run(this.carry, true);
  }

  private run(data: Buffer, last: boolean): Buffer {
    this.data = data;
    this.out = Buffer.allocUnsafe(data.length);
    this.o = 0;
    this.last = last;
    this.stopped = false;
    let i = 0;
    while (i < data.length && !this.stopped) {
      if (this.mode === 'text') i = this.text(i);
      else if (this.mode === 'comment') i = this.comment(i);
      else if (this.mode === 'head') i = this.head(i);
      else i = this.drop(i);
    }
    this.carry = i < data.length ? Buffer.from(data.subarray(i)) : Buffer.alloc(0);
    return this.out.subarray(0, this.o);
  }

  private copy(from: number, to: number): number {
    if (to > from) this.o += this.data.copy(this.out, this.o, from, to);
    return to;
  }

  private stop(at: number): number {
    this.stopped = true;
    return at;
  }

  private text(i: number): number {
    const data = this.data;
    const j = data.indexOf('<!', i);
    if (j < 0) return this.stop(this.copy(i, this.last ? data.length : data.length - (data[data.length - 1] === 0x3c ? 1 : 0)));
    if (!this.last && data.length - j < OPEN.length) return this.stop(this.copy(i, j));
    if (data.subarray(j, j + OPEN.length).equals(OPEN)) {
      this.mode = 'head';
      return this.copy(i, j + OPEN.length);
    }
    if (data.subarray(j, j + COMMENT_OPEN.length).equals(COMMENT_OPEN)) {
      this.mode = 'comment';
      return this.copy(i, j + COMMENT_OPEN.length);
    }
    return this.copy(i, j + 2);
  }

  private comment(i: number): number {
    const k = this.data.indexOf(COMMENT_CLOSE, i);
    if (k < 0) return this.stop(this.copy(i, this.last ? this.data.length : this.data.length - partial(this.data, i, COMMENT_CLOSE)));
    this.mode = 'text';
    return this.copy(i, k + COMMENT_CLOSE.length);
  }

  /**
   * `i` is the section's first byte: what was not decided at the end of a chunk is carried whole (fewer than
   * `min` bytes), so a `]]>` cut by the chunks is found here.
   */
  private head(i: number): number {
    const k = this.data.indexOf(CLOSE, i);
    const content = (k >= 0 ? k : this.data.length) - i;
    if (k >= 0 && content < this.min) {
      this.mode = 'text';
      return this.copy(i, k + CLOSE.length);
    }
    if (content >= this.min) {
      // Long enough: emptied, but for its line breaks.
      this.mode = 'drop';
      return i;
    }
    // Cut short inside the section at the end: passed on as it is, for the parser to say so.
    return this.stop(this.last ? this.copy(i, this.data.length) : i);
  }

  private drop(i: number): number {
    const data = this.data;
    const k = data.indexOf(CLOSE, i);
    // (Cut short inside the section: no `]]>` is made up, so the parser says the file ends too soon.)
    const upTo = k >= 0 ? k : this.last ? data.length : data.length - partial(data, i, CLOSE);
    for (let at = data.indexOf(NEWLINE, i); at >= 0 && at < upTo; at = data.indexOf(NEWLINE, at + 1)) this.out[this.o++] = NEWLINE;
    if (k < 0) return this.stop(upTo);
    this.o += CLOSE.copy(this.out, this.o);
    this.mode = 'text';
    return k + CLOSE.length;
  }
}

export function emptyLongCData(min = 64): ByteFilter {
  return new CDataFilter(min);
}
