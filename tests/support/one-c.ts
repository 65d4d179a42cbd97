// A stand-in for 1C:Enterprise's "Обмен с сайтом" (and MoySklad, which copies it): the calls it makes,
// in its order, as the published protocol describes them — checkauth with HTTP Basic, the cookie it is
// given sent back on every later call, init read for zip and file_limit, the files sent in parts no
// larger than file_limit (as one zip archive when the site says zip=yes), mode=import for each XML file
// called again while the site answers progress; for orders, query → success, and file. Answers are read
// as windows-1251. Nothing of the shop is imported here: only HTTP.
import yazl from 'yazl';

export interface Answer {
  status: number;
  lines: string[];
  text: string;
}

export interface ExchangeRun {
  /** Every answer to mode=import, file by file, in order. */
  imports: { file: string; answers: Answer[] }[];
  parts: number;
}

const decode = (bytes: ArrayBuffer) => new TextDecoder('windows-1251').decode(bytes);

/** A zip archive of these files (path in the archive → content), as 1C packs its exchange. */
export function zipOf(files: Record<string, Buffer | string>, compress = true): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name, { compress });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

export class OneC {
  private cookie = '';
  zip = false;
  fileLimit = 0;
  private readonly url: string;
  private readonly login: string;
  private readonly password: string;

  constructor(url: string, login: string, password: string) {
    this.url = url;
    this.login = login;
    this.password = password;
  }

  /** One call: GET, or POST with a body; the session cookie once there is one. */
  async call(type: string, mode: string, options: { filename?: string; body?: Buffer; basic?: boolean } = {}): Promise<Answer> {
    const query = new URLSearchParams({ type, mode, ...(options.filename ? { filename: options.filename } : {}) });
    const headers: Record<string, string> = {};
    if (options.basic) headers['authorization'] = `Basic ${Buffer.from(`${this.login}:${this.password}`).toString('base64')}`;
    if (this.cookie) headers['cookie'] = this.cookie;
    if (options.body) headers['content-type'] = 'application/octet-stream';
    const res = await fetch(`${this.url}?${query}`, {
      method: options.body ? 'POST' : 'GET',
      headers,
      ...(options.body ? { body: new Uint8Array(options.body) } : {}),
    });
    const text = decode(await res.arrayBuffer());
    return { status: res.status, text, lines: text.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1) };
  }

  /** checkauth then init, as every exchange session begins. */
  async begin(type: 'catalog' | 'sale'): Promise<void> {
    const auth = await this.call(type, 'checkauth', { basic: true });
    if (auth.lines[0] !== 'success') throw new Error(`checkauth: ${auth.text}`);
    this.cookie = `${auth.lines[1]}=${auth.lines[2]}`;
    const init = await this.call(type, 'init');
    const values = Object.fromEntries(init.lines.map((l) => l.split('=') as [string, string]));
    this.zip = values['zip'] === 'yes';
    this.fileLimit = Number(values['file_limit']);
    if (!(this.fileLimit > 0)) throw new Error(`init: ${init.text}`);
  }

  /** A file sent in parts of at most file_limit bytes, appended by the site. */
  async send(type: 'catalog' | 'sale', filename: string, content: Buffer): Promise<{ answers: Answer[]; parts: number }> {
    const answers: Answer[] = [];
    let parts = 0;
    // An empty file is still one (empty) part.
    let at = 0;
    do {
      answers.push(await this.call(type, 'file', { filename, body: content.subarray(at, at + this.fileLimit) }));
      parts++;
      at += this.fileLimit;
    } while (at < content.length && answers.at(-1)?.lines[0] === 'success');
    return { answers, parts };
  }

  /** mode=import for one file, called again while the site answers progress. */
  async import(type: 'catalog' | 'sale', filename: string, maxCalls = 600): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (let i = 0; i < maxCalls; i++) {
      const answer = await this.call(type, 'import', { filename });
      answers.push(answer);
      if (answer.lines[0] !== 'progress') return answers;
    }
    throw new Error(`${filename}: still in progress after ${maxCalls} calls`);
  }

  /**
   * A whole catalogue exchange as 1C runs it: checkauth, init, the files (one zip when the site takes
   * zip, else each file), then mode=import for each XML file in order.
   */
  async exchangeCatalogue(files: Record<string, Buffer | string>): Promise<ExchangeRun> {
    await this.begin('catalog');
    let parts = 0;
    if (this.zip) {
      const sent = await this.send('catalog', 'import.zip', await zipOf(files));
      parts += sent.parts;
      if (sent.answers.at(-1)?.lines[0] !== 'success') throw new Error(`file: ${sent.answers.at(-1)?.text}`);
    } else
      for (const [name, content] of Object.entries(files)) {
        const sent = await this.send('catalog', name, Buffer.from(content));
        parts += sent.parts;
      }
    const imports: ExchangeRun['imports'] = [];
    for (const name of Object.keys(files).filter((n) => /\.xml$/i.test(n) && !n.includes('/')))
      imports.push({ file: name, answers: await this.import('catalog', name) });
    return { imports, parts };
  }

  /** The orders exchange: the site's new orders (query), confirmed (success). */
  async takeOrders(confirm = true): Promise<string> {
    await this.begin('sale');
    const query = await this.call('sale', 'query');
    if (query.status !== 200) throw new Error(`query: ${query.text}`);
    if (confirm) {
      const done = await this.call('sale', 'success');
      if (done.lines[0] !== 'success') throw new Error(`success: ${done.text}`);
    }
    return query.text;
  }
}
