// What text from a visitor may contain: letters, digits, punctuation, spaces, line breaks and tabs —
// never NUL or other C0/C1 control characters, which no keyboard types and which break SQL text and HTML.
// eslint-disable-next-line no-control-regex -- the control characters are exactly what is looked for
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

/** The text without control characters (for echoing a visitor's text back in a page). */
export function withoutControlCharacters(text: string): string {
  return text.replace(new RegExp(CONTROL.source, 'g'), '');
}
