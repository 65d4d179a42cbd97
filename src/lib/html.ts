// HTML helpers with no imports: scripts/server.mjs loads their users (src/lib/http/edge.ts) from src/.

/** Text safe inside HTML elements and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** JSON for a <script type="application/json"> or ld+json: '<' escaped so no text can close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}
