// The props the front takes out of the page frame's islands (issue 27, docs/decisions/016): their strings,
// the same on every page of a language, rode in each page's HTML as props — about 0.7 KB of its brotli,
// in the bytes that decide whether a page comes in one round trip of a phone's new connection. The server
// still renders the islands with them; the browser takes them from one module per language, cached for
// every page (src/features/layout/layout.labels.client.ts), the island's props naming the rest.
// Keyed by the island's component (its file's name); src/features/layout/layout.labels.ts makes the same
// keys, and a test holds the two together. Relative imports only: loaded by Node from src/.

export const BROWSER_LOADED_PROPS: Readonly<Record<string, readonly string[]>> = {
  Header: ['labels'],
  BottomNav: ['labels', 'accountMenu'],
  NewsletterForm: ['messages'],
  Modals: ['frame'],
};

// Astro writes props as JSON in an attribute, escaped like this (html-escaper's five).
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };
const escape = (text: string) => text.replace(/[&<>'"]/g, (char) => ESCAPES[char] as string);
const unescape = (text: string) =>
  text.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (_, dec?: string, hex?: string, name?: string) =>
    dec
      ? String.fromCodePoint(Number(dec))
      : hex
        ? String.fromCodePoint(parseInt(hex, 16))
        : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[(name as string).toLowerCase()] as string),
  );

/** The page with those props taken out of those islands' `props` attributes; everything else as it was. */
export function stripIslandProps(html: string, rules: Readonly<Record<string, readonly string[]>> = BROWSER_LOADED_PROPS): string {
  return html.replace(/<astro-island\b[^>]*>/g, (tag) => {
    const name = /\scomponent-url="\/_astro\/([\w-]+)\./.exec(tag)?.[1];
    const drop = name ? rules[name] : undefined;
    if (!drop) return tag;
    return tag.replace(/\sprops="([^"]*)"/, (attribute, value: string) => {
      let props: Record<string, unknown>;
      try {
        props = JSON.parse(unescape(value)) as Record<string, unknown>;
      } catch {
        return attribute;
      }
      for (const key of drop) delete props[key];
      return ` props="${escape(JSON.stringify(props))}"`;
    });
  });
}
