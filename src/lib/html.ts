/** JSON for a <script type="application/json"> or ld+json: '<' escaped so no text can close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}
