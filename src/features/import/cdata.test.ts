// The prices-only reader's CDATA filter: long sections emptied but for their line breaks, short ones and
// comments kept, the same output however the bytes are cut into chunks.
import { describe, expect, it } from 'vitest';
import { emptyLongCData } from './cdata.ts';

const through = (text: string, cuts: number[] = [], min = 16) => {
  const bytes = Buffer.from(text, 'utf8');
  const filter = emptyLongCData(min);
  const parts: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    parts.push(Buffer.from(filter.write(bytes.subarray(at, cut))));
    at = cut;
  }
  parts.push(Buffer.from(filter.end()));
  return Buffer.concat(parts).toString('utf8');
};

const FEED = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<offers><offer id="1"><price><![CDATA[1990]]></price>',
  '<description><![CDATA[<p>Платье из шёлка,',
  'длинное, с поясом — «вечернее»]]></description>',
  '<!-- <![CDATA[ a comment is not a section ]]> -->',
  '<name>Платье</name><count>3</count></offer></offers>',
].join('\n');
const EXPECTED = FEED.replace('<![CDATA[<p>Платье из шёлка,\nдлинное, с поясом — «вечернее»]]>', '<![CDATA[\n]]>');

describe('emptyLongCData', () => {
  it('empties long sections but keeps their line breaks, and keeps short sections and comments whole', () => {
    expect(through(FEED)).toBe(EXPECTED);
    expect(through(FEED).split('\n')).toHaveLength(FEED.split('\n').length);
  });

  it('gives the same bytes whatever the chunks are, a cut inside every marker and every character included', () => {
    const length = Buffer.byteLength(FEED);
    for (let cut = 1; cut < length; cut++) expect(through(FEED, [cut]), `cut at ${cut}`).toBe(EXPECTED);
    for (let cut = 1; cut + 7 < length; cut += 3) expect(through(FEED, [cut, cut + 1, cut + 7]), `cuts at ${cut}`).toBe(EXPECTED);
  });

  it('leaves a section the file ends inside unclosed, so that the parser says the file was cut short', () => {
    const cutShort = '<offers><offer id="1"><description><![CDATA[a long description that never ends';
    expect(through(cutShort)).not.toContain(']]>');
    expect(through('<a><![CDATA[short')).toBe('<a><![CDATA[short');
  });

  it('passes markup it does not know as it is: a doctype, a processing instruction, text with "<!" in a section', () => {
    const text = '<!DOCTYPE yml_catalog SYSTEM "shops.dtd"><?pi x?><a><![CDATA[<!a]]></a>';
    expect(through(text)).toBe(text);
  });
});
