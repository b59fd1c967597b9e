import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGE_KEYS } from '@tp/contract/messages';
import enMain from './en.json';
import esMain from './es.json';
import enLater from './later/later-en.json';
import enConsole from '../console/locales/console-en.json';
import enScanner from '../scanner/locales/scanner-en.json';
import esLater from './later/later-es.json';
import enRefund from './refund/refund-en.json';
import esRefund from './refund/refund-es.json';
import enStepUp from './step-up/step-up-en.json';
import esStepUp from './step-up/step-up-es.json';
import enPasskeys from './passkeys/passkeys-en.json';
import esPasskeys from './passkeys/passkeys-es.json';
import enEntry from './entry/entry-en.json';
import esEntry from './entry/entry-es.json';
import enApi from '../../../api/src/locales/en.json';
import esApi from '../../../api/src/locales/es.json';

function flatten(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' && v ? flatten(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
// The later and the feature catalogues (lib/i18n.ts) are parts of each language's catalogue.
const enParts = {
  main: enMain,
  later: enLater,
  refund: enRefund,
  stepUp: enStepUp,
  passkeys: enPasskeys,
  entry: enEntry,
};
const esParts = {
  main: esMain,
  later: esLater,
  refund: esRefund,
  stepUp: esStepUp,
  passkeys: esPasskeys,
  entry: esEntry,
};
const enKeys = new Set(Object.values(enParts).flatMap((c) => flatten(c)));
const esKeys = new Set(Object.values(esParts).flatMap((c) => flatten(c)));
const has = (set: Set<string>, key: string) => set.has(key) || set.has(`${key}_one`);

/** Every t('...') key used in the source under `dir`, less the folders in `skip`. */
function usedKeys(dir: string, skip: string[] = []): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return skip.includes(p) ? [] : usedKeys(p, skip);
    if (!/\.tsx?$/.test(f) || f.endsWith('.test.ts')) return [];
    return [...readFileSync(p, 'utf8').matchAll(/\bt\('([a-z_][\w.]*)'/g)].map((m) => m[1]);
  });
}

describe('catalogues', () => {
  it('en and es have the same keys', () => {
    expect([...enKeys].filter((k) => !esKeys.has(k))).toEqual([]);
    expect([...esKeys].filter((k) => !enKeys.has(k))).toEqual([]);
  });
  it('each part holds the same keys in both languages, and a key lives in one part only', () => {
    for (const [part, en] of Object.entries(enParts))
      expect(flatten(en).sort(), part).toEqual(flatten(esParts[part as keyof typeof esParts]).sort());
    const all = Object.values(enParts).flatMap((c) => flatten(c));
    expect(all.filter((k, i) => all.indexOf(k) !== i)).toEqual([]);
  });
  it('every server message key is translated in both', () => {
    expect(MESSAGE_KEYS.filter((k) => !has(enKeys, k))).toEqual([]);
    expect(MESSAGE_KEYS.filter((k) => !has(esKeys, k))).toEqual([]);
  });
  // The console (decision 024) and the door scanner have their own catalogues: their source is checked against them,
  // the panel's against the panel's.
  const consoleDir = join(import.meta.dirname, '..', 'console');
  const scannerDir = join(import.meta.dirname, '..', 'scanner');
  it('every key used in the source exists', () => {
    const used = [...new Set(usedKeys(join(import.meta.dirname, '..'), [consoleDir, scannerDir]))];
    expect(used.length).toBeGreaterThan(40);
    expect(used.filter((k) => !has(enKeys, k))).toEqual([]);
  });
  it("every key used in the console's source exists in its catalogue", () => {
    const consoleKeys = new Set(flatten(enConsole));
    const used = [...new Set(usedKeys(consoleDir))];
    expect(used.length).toBeGreaterThan(40);
    expect(used.filter((k) => !has(consoleKeys, k))).toEqual([]);
  });
  it("every key used in the scanner's source exists in its catalogue", () => {
    const scannerKeys = new Set(flatten(enScanner));
    const used = [...new Set(usedKeys(scannerDir))];
    expect(used.length).toBeGreaterThan(40);
    expect(used.filter((k) => !has(scannerKeys, k))).toEqual([]);
  });
});

// The API's catalogues (e-mails, pages; apps/api/src/lib/i18n.ts): its source cannot name a key English lacks
// (the typecheck: `TextKey`), so here both languages must have the same keys, none empty.
describe("the API's catalogues", () => {
  it('en and es have the same keys, none empty', () => {
    const en = flatten(enApi);
    const es = flatten(esApi);
    expect(en.length).toBeGreaterThan(60);
    expect(en.filter((k) => !es.includes(k))).toEqual([]);
    expect(es.filter((k) => !en.includes(k))).toEqual([]);
    const empty = (o: Record<string, unknown>) =>
      flatten(o).filter((k) => !k.split('.').reduce<unknown>((v, part) => (v as Record<string, unknown>)[part], o));
    expect([...empty(enApi), ...empty(esApi)]).toEqual([]);
  });
});
