// Marking codes (Честный знак, issue 39; docs/marking.md): the DataMatrix code of one unit of shoes or
// clothing, as a packing scanner types it, read back to its one true form and checked before it is kept.
//
// A code of these goods is GS1 data in four fields: `01` and the 14-digit GTIN, `21` and the unit's
// 13-character serial, then — each after a group separator (GS, ASCII 29) — `91` and the 4-character
// verification key, and `92` and the 44-character crypto tail. Scanners that "type" the code as a
// keyboard lose or disguise the GS, may prefix the symbology (`]d2`), and under a Russian keyboard layout
// send Cyrillic letters for Latin keys: `normalizeCode` undoes all of that, `parseCode` checks the fields.
import { slugGlob } from '~/lib/slug.ts';
import { RU_TO_US } from '~/lib/keyboard.ts';

/** The group separator between the variable-length fields. */
export const GS = '\u001d';

/** The longest input a packing field takes: a real code is 83 characters with its separators. */
export const CODE_MAX_CHARS = 200;

const SERIAL_CHARS = 13;
/** GS1's character set 82, the only characters a serial, key or tail may hold (a class for RegExp). */
const CSET82 = `[!"%&'()*+,\\-./0-9:;<=>?A-Z_a-z]`;
const KEY_CHARS = 4;
const TAIL_CHARS = 44;

/** How scanners and copy-paste write the group separator when they cannot send ASCII 29. */
const GS_STAND_INS = [/\\x1d/gi, /\\u001d/gi, /<GS>/gi, /\[GS\]/gi, /\{GS\}/gi, /\u241d/g, /\^\]/g, /<FNC1>/gi, /\\F/g];

const CYRILLIC = /[\u0400-\u04ff№]/;

/** Why a code is refused: the packing page says it in the manager's language (marking.* messages). */
export type CodeProblem = 'empty' | 'tooLong' | 'control' | 'format' | 'gtin';

export interface MarkingCode {
  /** The 14-digit GTIN of the unit's product and size. */
  gtin: string;
  /** The unit's serial: with the GTIN, what makes the code unique. */
  serial: string;
  key: string;
  tail: string;
  /** The whole code in its one form: `01…21…<GS>91…<GS>92…`. What is stored and sent to the receipt. */
  code: string;
}

/**
 * A scanned code in the one form it is checked and kept in: symbology prefix dropped, separators restored
 * to ASCII 29 from whatever stood for them, the Russian layout's letters mapped back to the keys' Latin,
 * surrounding blanks trimmed. A missing separator is put back when the fields' fixed lengths show where it
 * belongs (`parseCode` does that).
 */
export function normalizeCode(input: string): string {
  // eslint-disable-next-line no-control-regex -- NULs around a pasted code are what is trimmed
  let code = input.replace(/^[\s\u0000]+|[\s\u0000]+$/g, '');
  if (CYRILLIC.test(code)) code = [...code].map((c) => RU_TO_US[c] ?? c).join('');
  for (const standIn of GS_STAND_INS) code = code.replace(standIn, GS);
  // The symbology identifier of GS1 DataMatrix (`]d2`), and a leading FNC1 some scanners send as GS.
  code = code.replace(/^\]d2/i, '').replace(new RegExp(`^${GS}+`), '');
  return code;
}

/** The code's fields, or why it is not a code of marked shoes or clothing. */
export function parseCode(input: string): { ok: true; value: MarkingCode } | { ok: false; problem: CodeProblem } {
  if (input.length > CODE_MAX_CHARS) return { ok: false, problem: 'tooLong' };
  const code = normalizeCode(input);
  if (!code) return { ok: false, problem: 'empty' };
  // Any control character but the separator is not a scanner's: refused, never stored.
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001c\u001e\u001f\u007f]/.test(code)) return { ok: false, problem: 'control' };
  const head = new RegExp(`^01(\\d{14})21(${CSET82}{${SERIAL_CHARS}})`).exec(code);
  if (!head) return { ok: false, problem: 'format' };
  const [, gtin = '', serial = ''] = head;
  // The tails after the fixed-length serial, with or without their separators.
  const rest = code.slice(2 + 14 + 2 + SERIAL_CHARS);
  const tails = new RegExp(`^${GS}?91(${CSET82}{${KEY_CHARS}})${GS}?92(${CSET82}{${TAIL_CHARS}})$`).exec(rest);
  if (!tails) return { ok: false, problem: 'format' };
  const [, key = '', tail = ''] = tails;
  if (!validGtin(gtin)) return { ok: false, problem: 'gtin' };
  return { ok: true, value: { gtin, serial, key, tail, code: `01${gtin}21${serial}${GS}91${key}${GS}92${tail}` } };
}

/** A GTIN's check digit (GS1's mod 10), so a misread digit is caught before the size is looked at. */
export function validGtin(gtin: string): boolean {
  if (!/^\d{8,14}$/.test(gtin)) return false;
  const digits = [...gtin].map(Number);
  const check = digits.pop() as number;
  const sum = digits.reverse().reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** A barcode as the import keeps it (EAN-13, EAN-8, UPC-A or GTIN-14) as a 14-digit GTIN; null if not one. */
export function gtin14(barcode: string): string | null {
  const digits = barcode.trim();
  return /^\d{8}$|^\d{12,14}$/.test(digits) && validGtin(digits) ? digits.padStart(14, '0') : null;
}

/**
 * The code as a person reads it and a form sends it back: the separators written `<GS>`, as scanner
 * manuals write them (the control picture ␝ is missing from most fonts). normalizeCode reads it back.
 */
export const displayCode = (code: string) => code.replaceAll(GS, '<GS>');

/** MARKED_CATEGORIES as patterns: slugs with commas between, `*` for any letters. */
export function markedPatterns(text: string): RegExp[] {
  return text
    .split(',')
    .map((slug) => slug.trim())
    .filter((slug) => /^[a-z0-9*_-]{1,100}$/.test(slug))
    .map(slugGlob);
}

/** Whether a product is marked: its own flag, else whether its category or a parent (slugs, nearest first) is listed. */
export function isMarked(own: boolean | null, slugs: readonly string[], patterns: readonly RegExp[]): boolean {
  return own ?? slugs.some((slug) => patterns.some((p) => p.test(slug)));
}
