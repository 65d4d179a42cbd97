// The safe subset of HTML a product description keeps (docs/import.md): paragraphs, line breaks, lists,
// emphasis and small headings, with no attribute at all — so no link, style, script or event handler
// survives, whatever a feed or 1C sends. Applied when a description is imported and again when a page
// shows one. Relative imports only: loaded by Node from src/ (the import CLI).
import sanitizeHtml from 'sanitize-html';

const DESCRIPTION_MAX = 20_000;

export function safeDescription(html: string): string {
  const clean = sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'ul', 'ol', 'li', 'b', 'strong', 'i', 'em', 'h3', 'h4'],
    allowedAttributes: {},
    disallowedTagsMode: 'discard',
    // The text of these goes with them.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'title'],
  });
  return clean
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim()
    .slice(0, DESCRIPTION_MAX);
}
