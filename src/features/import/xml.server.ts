// A streaming XML reader for catalogue files (YML, CommerceML): bytes in, the elements asked for out, as
// small trees, one batch per chunk of input, so a 200 MB feed never sits in memory whole. What the files
// of other shops' software do is its business (../shared/fixtures/import/SOURCES.md §5):
// - the encoding comes from a BOM or the XML declaration (UTF-8, windows-1251, UTF-16), never assumed;
// - names are matched on their local part, whatever namespace or prefix a file uses;
// - HTML's named entities (&nbsp;, &laquo;) are read as the characters they name, as feeds use them;
// - a document type that declares entities is refused whole (no external entity is ever fetched and no
//   entity is expanded: XXE and "billion laughs" do nothing), as is anything that is not well-formed.
import { SaxesParser, type SaxesTag } from 'saxes';
import { escapeHtml } from '../../lib/html.ts';
import { emptyLongCData } from './cdata.ts';

export interface XmlElement {
  /** The local name: `offer`, `Товар` (no namespace prefix). */
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Text, CDATA and child elements in document order (mixed content: HTML written without CDATA). */
  nodes: (string | XmlElement)[];
  /** The line the element starts on (1-based). */
  line: number;
  /** Set when something inside could not be read (an unknown entity): the element is reported, not used. */
  problem?: string;
}

/** The file as a whole cannot be read: nothing of it is to be applied. */
export class XmlReadError extends Error {
  readonly line: number | undefined;
  constructor(message: string, line?: number) {
    super(message);
    this.name = 'XmlReadError';
    this.line = line;
  }
}

/** No element of a catalogue is deeper than this; a deeper one is an attack or a broken file. */
const MAX_DEPTH = 64;
/** The longest text one element may hold (a description is at most a few KB). */
const MAX_TEXT = 1 << 20;

// The named entities of HTML that feeds write outside CDATA. Anything else named is an error line for the
// element it is in; numeric references (&#171;, &#xAB;) are XML's own and always read.
const HTML_ENTITIES: Record<string, string> = {
  nbsp: '\u00a0',
  laquo: '«',
  raquo: '»',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  mdash: '—',
  ndash: '–',
  minus: '−',
  hellip: '…',
  bull: '•',
  middot: '·',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  plusmn: '±',
  times: '×',
  divide: '÷',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  sup2: '²',
  sup3: '³',
  micro: 'µ',
  para: '¶',
  sect: '§',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  curren: '¤',
  shy: '\u00ad',
  thinsp: '\u2009',
  ensp: '\u2002',
  emsp: '\u2003',
  zwnj: '\u200c',
  zwj: '\u200d',
  laquo2: '«',
  prime: '′',
  Prime: '″',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  harr: '↔',
  infin: '∞',
  le: '≤',
  ge: '≥',
  ne: '≠',
  asymp: '≈',
  hearts: '♥',
  check: '✓',
  numero: '№',
  iexcl: '¡',
  iquest: '¿',
  ordm: 'º',
  ordf: 'ª',
  acute: '´',
  uml: '¨',
  cedil: '¸',
  macr: '¯',
  brvbar: '¦',
  not: '¬',
  eacute: 'é',
  egrave: 'è',
  ecirc: 'ê',
  aacute: 'á',
  agrave: 'à',
  acirc: 'â',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  szlig: 'ß',
  ccedil: 'ç',
  ntilde: 'ñ',
  oacute: 'ó',
  iacute: 'í',
  uacute: 'ú',
  oslash: 'ø',
  aring: 'å',
  aelig: 'æ',
};

const ENCODINGS: Record<string, string> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'windows-1251': 'windows-1251',
  cp1251: 'windows-1251',
  'win-1251': 'windows-1251',
  'utf-16': 'utf-16le',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'iso-8859-1': 'windows-1252',
  'us-ascii': 'utf-8',
  'koi8-r': 'koi8-r',
};

/** The encoding of a document from its first bytes: a byte-order mark, else the XML declaration, else UTF-8. */
export function sniffEncoding(head: Uint8Array): { encoding: string; bom: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: 2 };
  const prolog = new TextDecoder('latin1').decode(head.subarray(0, 256));
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(prolog)?.[1]?.toLowerCase();
  if (!declared) return { encoding: 'utf-8', bom: 0 };
  const encoding = ENCODINGS[declared];
  if (!encoding) throw new XmlReadError(`the file's encoding "${declared}" is not one this shop reads (UTF-8, windows-1251, UTF-16)`, 1);
  return { encoding, bom: 0 };
}

const localName = (qualified: string) => {
  const colon = qualified.indexOf(':');
  return colon < 0 ? qualified : qualified.slice(colon + 1);
};

/** A tag's attributes by local name: without namespace processing (saxes' default) each is its plain string value. */
function attributesOf(tag: SaxesTag): Record<string, string> {
  const attrs: Record<string, string> = {};
  const given = tag.attributes as Record<string, string>;
  for (const key in given) attrs[localName(key)] = given[key] as string;
  return attrs;
}

export interface ReadOptions {
  /** Whether the element at this path (local names from the root) is wanted whole. */
  wanted: (path: readonly string[]) => boolean;
  /**
   * Called on every opening tag (for counting, say), with the path including the element itself and its
   * attributes, made only when asked for: most tags of a large feed are counted or skipped, never read.
   */
  onOpen?: (path: readonly string[], attributes: () => Record<string, string>) => void;
  /** Local names whose content a wanted element is built without (a description, when only prices matter). */
  skip?: ReadonlySet<string>;
  /**
   * CDATA sections of 64 bytes or more emptied before they are decoded (cdata.ts): for a read that needs
   * none of their text (prices and stock). Only in encodings whose markup is ASCII.
   */
  emptyLongCData?: boolean;
}

export interface ReadElement {
  path: readonly string[];
  element: XmlElement;
}

/**
 * The parser's handlers that build the wanted elements: `take` hands over those completed so far, `fatal` the
 * error that ends the read, if one came.
 */
function buildElements(parser: SaxesParser, options: ReadOptions) {
  const path: string[] = [];
  // The wanted element being built, and the open elements inside it; the text it holds, against
  // MAX_TEXT; the depth inside an element skipped.
  const building: XmlElement[] = [];
  let held = 0;
  let skipping = 0;
  let out: ReadElement[] = [];
  let fatal: XmlReadError | undefined;
  const fail = (message: string) => {
    fatal ??= new XmlReadError(message, parser.line);
  };

  parser.on('doctype', (doctype) => {
    if (/<!ENTITY/i.test(doctype)) fail('the file declares XML entities in its DOCTYPE; such files are refused (no entity is expanded or fetched)');
  });
  parser.on('opentag', (tag: SaxesTag) => {
    const name = localName(tag.name);
    path.push(name);
    if (path.length > MAX_DEPTH) return fail(`elements are nested deeper than ${MAX_DEPTH} levels`);
    let attrs: Record<string, string> | undefined;
    const attributes = () => (attrs ??= attributesOf(tag));
    options.onOpen?.(path, attributes);
    if (skipping > 0 || (building.length > 0 && options.skip?.has(name))) {
      skipping++;
      return;
    }
    if (building.length > 0 || options.wanted(path)) {
      const element: XmlElement = { name, attrs: attributes(), children: [], nodes: [], line: parser.line };
      const parent = building.at(-1);
      parent?.children.push(element);
      parent?.nodes.push(element);
      building.push(element);
    }
  });
  const addText = (text: string) => {
    const current = building.at(-1);
    if (!current || skipping > 0) return;
    held += text.length;
    if (held > MAX_TEXT) {
      (building[0] as XmlElement).problem ??= `the element <${(building[0] as XmlElement).name}> holds more than ${MAX_TEXT} characters of text`;
      return;
    }
    current.nodes.push(text);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    if (skipping > 0) skipping--;
    else if (building.length > 0) {
      const element = building.pop() as XmlElement;
      if (building.length === 0) {
        out.push({ path: [...path], element });
        held = 0;
      }
    }
    path.pop();
  });
  parser.on('error', (error) => {
    const message = error.message.replace(/^[^:]*:\d+:\d+: /, '');
    if (/undefined entity|entity/i.test(message) && building.length > 0) {
      (building[0] as XmlElement).problem ??= message;
      return;
    }
    fail(message);
  });
  const take = () => {
    const done = out;
    out = [];
    return done;
  };
  return { path, take, fatal: () => fatal };
}

/** Text from a document's bytes, in the encoding its first bytes say, without the BOM; long CDATA emptied first when asked. */
function decoderFor(first: Uint8Array, options: ReadOptions): { bom: number; write(bytes: Uint8Array): string; end(): string } {
  const { encoding, bom } = sniffEncoding(first);
  // TextDecoder for every encoding: on Node 24 it decodes a mostly Cyrillic UTF-8 feed in about two
  // thirds of StringDecoder's time (486–536 against 726–1,044 ms for 170 MB).
  const text = new TextDecoder(encoding);
  const filter = options.emptyLongCData && !encoding.startsWith('utf-16') ? emptyLongCData() : undefined;
  return {
    bom,
    write: (bytes) => text.decode(filter ? filter.write(bytes) : bytes, { stream: true }),
    end: () => (filter ? text.decode(filter.end(), { stream: true }) : '') + text.decode(),
  };
}

/**
 * Reads a document and yields, after each chunk of input, the wanted elements that chunk completed.
 * Throws XmlReadError when the document is not well-formed, is cut short, declares entities, or nests
 * deeper than any catalogue does; what was yielded before stays yielded, so a caller that must apply all
 * or nothing reads the document once without applying first (`checkXml`).
 */
export async function* readXml(source: AsyncIterable<Uint8Array>, options: ReadOptions): AsyncGenerator<ReadElement[]> {
  const parser = new SaxesParser({ position: true });
  Object.assign(parser.ENTITIES, HTML_ENTITIES);
  const built = buildElements(parser, options);
  let decoder: ReturnType<typeof decoderFor> | undefined;
  for await (const chunk of source) {
    let bytes = chunk;
    if (!decoder) {
      decoder = decoderFor(bytes, options);
      bytes = bytes.subarray(decoder.bom);
    }
    parser.write(decoder.write(bytes));
    const fatal = built.fatal();
    if (fatal) throw fatal;
    const done = built.take();
    if (done.length > 0) yield done;
  }
  if (!decoder) throw new XmlReadError('the file is empty');
  parser.write(decoder.end());
  parser.close();
  const fatal = built.fatal();
  if (fatal) throw fatal;
  if (built.path.length > 0) throw new XmlReadError(`the file ends inside <${built.path.at(-1)}>: it was cut short`, parser.line);
  const done = built.take();
  if (done.length > 0) yield done;
}

/** Reads a document through without building anything: throws XmlReadError where readXml would. */
export async function checkXml(source: AsyncIterable<Uint8Array>, onOpen?: ReadOptions['onOpen']): Promise<void> {
  for await (const _ of readXml(source, { wanted: () => false, ...(onOpen ? { onOpen } : {}) })) {
    // Nothing is wanted: the loop only drives the parser.
  }
}

/** The first child with this local name. */
export const child = (element: XmlElement, name: string): XmlElement | undefined => element.children.find((c) => c.name === name);
/** Every child with this local name. */
export const childrenNamed = (element: XmlElement, name: string): XmlElement[] => element.children.filter((c) => c.name === name);
/** An element's text with its descendants', in order, as written (entities read). */
export function rawText(element: XmlElement | undefined): string {
  if (!element) return '';
  return element.nodes.map((n) => (typeof n === 'string' ? n : rawText(n))).join('');
}
/** An element's text with its descendants', whitespace collapsed and trimmed. */
export const textOf = (element: XmlElement | undefined): string => rawText(element).replace(/\s+/g, ' ').trim();

/** An element's content written back as markup: HTML put in a feed without CDATA, for the sanitiser. */
export function innerMarkup(element: XmlElement): string {
  return element.nodes
    .map((n) =>
      typeof n === 'string'
        ? escapeHtml(n)
        : `<${n.name}${Object.entries(n.attrs)
            .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
            .join('')}>${innerMarkup(n)}</${n.name}>`,
    )
    .join('');
}
/** The trimmed text of the first child with this name ('' when absent). */
export const childText = (element: XmlElement, name: string): string => textOf(child(element, name));
