export type Params = Record<string, string | number>;

/** Puts the values into a message's {placeholders} (one pass: a value is never read as a template). */
export function fill(template: string, params: Params = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
