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

export function emptyLongCData(min = 64): ByteFilter {
  let carry: Buffer = Buffer.alloc(0);
  // 'head': inside a section not yet known to reach `min` bytes.
  let mode: 'text' | 'comment' | 'head' | 'drop' = 'text';

  function run(data: Buffer, last: boolean): Buffer {
    // The output is never longer than the input: written in place, no list of parts.
    const out = Buffer.allocUnsafe(data.length);
    let o = 0;
    const copy = (from: number, to: number) => {
      if (to > from) o += data.copy(out, o, from, to);
    };
    const newlines = (bytes: Buffer, from: number, to: number) => {
      for (let at = bytes.indexOf(NEWLINE, from); at >= 0 && at < to; at = bytes.indexOf(NEWLINE, at + 1)) out[o++] = NEWLINE;
    };
    let i = 0;
    while (i < data.length) {
      if (mode === 'text') {
        const j = data.indexOf('<!', i);
        if (j < 0) {
          const upTo = last ? data.length : data.length - (data[data.length - 1] === 0x3c ? 1 : 0);
          copy(i, upTo);
          i = upTo;
          break;
        }
        if (!last && data.length - j < OPEN.length) {
          copy(i, j);
          i = j;
          break;
        }
        if (data.subarray(j, j + OPEN.length).equals(OPEN)) {
          copy(i, j + OPEN.length);
          i = j + OPEN.length;
          mode = 'head';
        } else if (data.subarray(j, j + COMMENT_OPEN.length).equals(COMMENT_OPEN)) {
          copy(i, j + COMMENT_OPEN.length);
          i = j + COMMENT_OPEN.length;
          mode = 'comment';
        } else {
          copy(i, j + 2);
          i = j + 2;
        }
      } else if (mode === 'comment') {
        const k = data.indexOf(COMMENT_CLOSE, i);
        if (k < 0) {
          const upTo = last ? data.length : data.length - partial(data, i, COMMENT_CLOSE);
          copy(i, upTo);
          i = upTo;
          break;
        }
        copy(i, k + COMMENT_CLOSE.length);
        i = k + COMMENT_CLOSE.length;
        mode = 'text';
      } else if (mode === 'head') {
        // `i` is the section's first byte: what was not decided at the end of a chunk is carried whole
        // (fewer than `min` bytes), so a `]]>` cut by the chunks is found here.
        const k = data.indexOf(CLOSE, i);
        const content = (k >= 0 ? k : data.length) - i;
        if (k >= 0 && content < min) {
          copy(i, k + CLOSE.length);
          i = k + CLOSE.length;
          mode = 'text';
          continue;
        }
        if (content >= min) {
          // Long enough: emptied, but for its line breaks.
          mode = 'drop';
          continue;
        }
        if (last) {
          // Cut short inside the section: passed on as it is, for the parser to say so.
          copy(i, data.length);
          i = data.length;
        }
        break;
      } else {
        const k = data.indexOf(CLOSE, i);
        if (k < 0) {
          // (Cut short inside the section: no `]]>` is made up, so the parser says the file ends too soon.)
          const upTo = last ? data.length : data.length - partial(data, i, CLOSE);
          newlines(data, i, upTo);
          i = upTo;
          break;
        }
        newlines(data, i, k);
        o += CLOSE.copy(out, o);
        i = k + CLOSE.length;
        mode = 'text';
      }
    }
    carry = i < data.length ? Buffer.from(data.subarray(i)) : Buffer.alloc(0);
    return out.subarray(0, o);
  }

  return {
    write: (chunk) => run(carry.length > 0 ? Buffer.concat([carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), false),
    end: () => run(carry, true),
  };
}
