import { describe, expect, it } from 'vitest';
import { typedInRussian } from '../../../tests/support/marking-codes.ts';
import { displayCode, GS, gtin14, normalizeCode, parseCode, validGtin } from './marking.ts';

// Real-shaped codes of shoes: GTIN 04601234567893 (EAN-13 4601234567893), a 13-character serial, the key and
// the 44-character crypto tail.
const GTIN = '04601234567893';
const SERIAL = "5Kt'sE*pH>Qx2";
const KEY = 'EE06';
const TAIL = 'Vm9A7kqXc3Rz1bYtP0wLs8dNf2Hj6GuQe4KyWiOaBnM=';
const CANONICAL = `01${GTIN}21${SERIAL}${GS}91${KEY}${GS}92${TAIL}`;

describe('a scanned marking code', () => {
  it.each([
    ['with ASCII 29 between the fields', CANONICAL],
    ['without any separator', CANONICAL.replaceAll(GS, '')],
    ['with a separator before 92 only', `01${GTIN}21${SERIAL}91${KEY}${GS}92${TAIL}`],
    ['with the symbology prefix ]d2', `]d2${CANONICAL}`],
    ['with a leading FNC1 sent as GS', `${GS}${CANONICAL}`],
    ['with "\\x1d" typed out', CANONICAL.replaceAll(GS, '\\x1d')],
    ['with "\\u001D" typed out', CANONICAL.replaceAll(GS, '\\u001D')],
    ['with <GS> as its stand-in', CANONICAL.replaceAll(GS, '<GS>')],
    ['with the visible ␝', CANONICAL.replaceAll(GS, '\u241d')],
    ['with blanks and a newline around it', `  ${CANONICAL}\r\n`],
    ['typed by a scanner under the Russian layout', typedInRussian(CANONICAL)],
    ['under the Russian layout, with ]d2 and no separators', typedInRussian(`]d2${CANONICAL.replaceAll(GS, '')}`)],
  ])('%s reads as the one code', (_name, scanned) => {
    const parsed = parseCode(scanned);
    expect(parsed).toEqual({ ok: true, value: { gtin: GTIN, serial: SERIAL, key: KEY, tail: TAIL, code: CANONICAL } });
  });

  it.each([
    ['an empty field', '   ', 'empty'],
    ['a 10 KB paste', 'A'.repeat(10_000), 'tooLong'],
    ['a NUL inside', `01${GTIN}21${SERIAL}\u0000${KEY}`, 'control'],
    ['a script', `<script>alert(1)</script>${CANONICAL}`, 'format'],
    ['an EAN-13 alone (a box label, not the unit’s code)', '4601234567893', 'format'],
    ['a serial one character short', `01${GTIN}21${SERIAL.slice(1)}${GS}91${KEY}${GS}92${TAIL}`, 'format'],
    ['no crypto tail', `01${GTIN}21${SERIAL}${GS}91${KEY}`, 'format'],
    ['a crypto tail cut short', CANONICAL.slice(0, -3), 'format'],
    ['a character outside GS1’s set in the serial', `01${GTIN}21${SERIAL.slice(0, -1)}#${GS}91${KEY}${GS}92${TAIL}`, 'format'],
    ['a misread GTIN digit', CANONICAL.replace(GTIN, '04601234567894'), 'gtin'],
  ])('%s is refused: %s', (_name, scanned, problem) => {
    expect(parseCode(scanned)).toEqual({ ok: false, problem });
  });

  it('normalises without judging: what the checks then read', () => {
    expect(normalizeCode(`]d2${CANONICAL.replaceAll(GS, '{GS}')}`)).toBe(CANONICAL);
    expect(normalizeCode(typedInRussian('01abc'))).toBe('01abc');
  });

  it('is shown with its separators visible, and read back as it was', () => {
    expect(displayCode(CANONICAL)).toBe(`01${GTIN}21${SERIAL}<GS>91${KEY}<GS>92${TAIL}`);
    expect(normalizeCode(displayCode(CANONICAL))).toBe(CANONICAL);
  });
});

describe('GTINs', () => {
  it('checks the GS1 check digit', () => {
    expect(validGtin('04601234567893')).toBe(true);
    expect(validGtin('4601234567893')).toBe(true);
    expect(validGtin('4601234567890')).toBe(false);
    expect(validGtin('46012345678a3')).toBe(false);
  });

  it('reads a size’s barcode as a 14-digit GTIN, and nothing else', () => {
    expect(gtin14('4601234567893')).toBe(GTIN);
    expect(gtin14(' 04601234567893 ')).toBe(GTIN);
    expect(gtin14('4601234567890')).toBeNull();
    expect(gtin14('12345')).toBeNull();
    expect(gtin14('')).toBeNull();
  });
});
