// windows-1251, the encoding 1C reads the exchange's answers in. Node decodes it (ICU) but has no encoder:
// the table is the decoder's, turned round, so the two cannot disagree.

let table: Map<number, number> | undefined;

function encoderTable(): Map<number, number> {
  if (table) return table;
  const decoder = new TextDecoder('windows-1251');
  table = new Map();
  for (let byte = 0x80; byte <= 0xff; byte++) {
    const char = decoder.decode(Uint8Array.of(byte));
    // 0x98 is unassigned: the decoder gives U+FFFD (or a C1 control), which is never encoded back.
    const code = char.codePointAt(0) ?? 0xfffd;
    if (code !== 0xfffd && !table.has(code)) table.set(code, byte);
  }
  return table;
}

/**
 * Text as windows-1251 bytes. A character the encoding lacks becomes an XML character reference in
 * XML (lossless) and '?' in plain text.
 */
export function encodeCp1251(text: string, unknown: 'xml' | 'text' = 'text'): Uint8Array {
  const map = encoderTable();
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code < 0x80) bytes.push(code);
    else {
      const byte = map.get(code);
      if (byte !== undefined) bytes.push(byte);
      else if (unknown === 'xml') for (const c of `&#${code};`) bytes.push(c.charCodeAt(0));
      else bytes.push(0x3f);
    }
  }
  return Uint8Array.from(bytes);
}
