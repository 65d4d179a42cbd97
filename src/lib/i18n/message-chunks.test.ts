import { describe, expect, it } from 'vitest';
import { parseMessageChunkId } from './groups.ts';
import { messageChunks } from './message-chunks.ts';
import { t } from './index.ts';

const plugin = messageChunks();
const resolve = (id: string) => (plugin.resolveId as (id: string) => string | undefined)(id);
const load = (id: string) => (plugin.load as (id: string) => string | undefined)(id);
const exported = (code: string | undefined) => JSON.parse((code ?? '').replace(/^export default /, '').replace(/;$/, '')) as Record<string, string>;

describe('message chunks (islands’ strings loaded when first needed)', () => {
  it('makes one module per language with exactly the group’s keys', () => {
    const id = resolve('virtual:messages/en/modals');
    expect(id).toBe('\0virtual:messages/en/modals');
    const en = exported(load(id as string));
    expect(en['auth.login']).toBe(t('en', 'auth.login'));
    expect(en['buyout.title']).toBe(t('en', 'buyout.title'));
    expect(Object.keys(en).every((key) => /^(?:auth\.|buyout\.|validation\.|ui\.loading$|nav\.account$|nav\.close$)/.test(key))).toBe(true);
    const ru = exported(load(resolve('virtual:messages/ru/modals') as string));
    expect(ru['auth.login']).toBe(t('ru', 'auth.login'));
    expect(Object.keys(ru)).toEqual(Object.keys(en));
  });

  it('leaves every other id to Vite', () => {
    for (const id of ['virtual:messages/de/modals', 'virtual:messages/ru/nothing', 'virtual:messages/ru/modals/x', 'virtual:messages/ru', './modals.ts'])
      expect(parseMessageChunkId(id), id).toBeNull();
    expect(resolve('react')).toBeUndefined();
    expect(load('/src/x.ts')).toBeUndefined();
  });
});
