import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CheckInOutcome, Door, EventsOutcome } from './door-api';
import { catalogues, formatsFor, textsFor } from './i18n';
import type { DoorStatus } from './offline-door';
import { PASS_CODE_MAX_LENGTH } from '@tp/contract/pass-code';
import { cleanKey, keyFromFragment, STORAGE, startScanner } from './scanner';

const t = textsFor('en');
const html = readFileSync(join(import.meta.dirname, 'index.html'), 'utf8');
const EVENTS: EventsOutcome = {
  kind: 'events',
  events: [
    {
      id: 1,
      name: 'Harbour Lights',
      city: 'Sydney',
      startsAt: '2026-12-01T08:00:00.000Z',
      timeZone: 'Australia/Sydney',
    },
    {
      id: 2,
      name: 'River Nights',
      city: 'Brisbane',
      startsAt: '2026-12-08T08:00:00.000Z',
      timeZone: 'Australia/Brisbane',
    },
  ],
};
const admitted: CheckInOutcome = {
  kind: 'answered',
  answer: {
    holderName: 'Alice',
    admitted: [{ userTicketId: 5, ticketName: 'GA' }],
    alreadyUsed: [],
    listedForResale: [],
  },
};

/** A door whose answers the test sets; it records the keys and check-ins it was given. */
function fakeDoor(events: EventsOutcome = EVENTS, checkIn: CheckInOutcome = admitted) {
  const seen = { keys: [] as string[], checkIns: [] as { code: string; eventId: number }[] };
  const doorFor = (key: string): Door => {
    seen.keys.push(key);
    return {
      events: () => Promise.resolve(key === 'right' ? events : { kind: 'unauthorized' }),
      checkIn: (code, eventId) => {
        seen.checkIns.push({ code, eventId });
        return Promise.resolve(checkIn);
      },
    };
  };
  return { seen, doorFor };
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const settle = () => new Promise((r) => setTimeout(r, 0));
const submit = async (formId: string) => {
  $<HTMLFormElement>(formId).requestSubmit();
  await settle();
};
const start = (door: ReturnType<typeof fakeDoor>) =>
  startScanner({
    doc: document,
    texts: t,
    // A door device in Sydney in Nov 2026: the Brisbane event (no daylight saving) names its zone.
    formats: formatsFor('en', { timeZone: 'Australia/Sydney', now: new Date('2026-11-28T00:00:00Z') }),
    storage: sessionStorage,
    doorFor: door.doorFor,
  });

beforeEach(() => {
  sessionStorage.clear();
  document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(html)![1];
});

describe('the door scanner page', () => {
  it('asks for the key, lists the events, checks a typed code at the picked event and shows ADMITTED', async () => {
    const door = fakeDoor();
    await start(door);
    expect($('key-step').hidden).toBe(false);
    expect($('scan-step').hidden).toBe(true);

    $<HTMLInputElement>('scanner-key').value = ' right ';
    await submit('key-form');
    expect(door.seen.keys).toEqual(['right']);
    expect(sessionStorage.getItem(STORAGE.key)).toBe('right');
    expect($('scan-step').hidden).toBe(false);
    const select = $<HTMLSelectElement>('event');
    expect([...select.options].map((o) => o.textContent)).toEqual([
      // Each event's start in its own time zone, as the panel shows it (issue 29), named when not the device's (40).
      'Harbour Lights · Sydney · Tue, 01 Dec, 7:00 PM',
      'River Nights · Brisbane · Tue, 08 Dec, 6:00 PM AEST',
    ]);
    expect($('result').textContent).toContain(t('ready'));

    select.value = '2';
    select.dispatchEvent(new Event('change'));
    expect(sessionStorage.getItem(STORAGE.event)).toBe('2');
    $<HTMLInputElement>('code').value = ' TP1.1.2.abc ';
    await submit('code-form');
    expect(door.seen.checkIns).toEqual([{ code: 'TP1.1.2.abc', eventId: 2 }]);
    expect($('result').dataset.tone).toBe('ok');
    expect($('result').querySelector('.verdict')?.textContent).toBe('ADMITTED');
    expect($('result').textContent).toContain('Holder: Alice');
    expect($<HTMLInputElement>('code').value).toBe('');
  });

  it('takes a door key from a set-up link, and cleans a pasted key or link (issue 40 point 7)', async () => {
    const key = 'tpd_' + 'A1b2C3d4'.repeat(6) + 'xyzw';
    expect(keyFromFragment(`#key=${key}`)).toBe(key);
    expect(keyFromFragment('')).toBeNull();
    expect(keyFromFragment('#other=1')).toBeNull();
    expect(cleanKey(` ${key.slice(0, 20)}\n${key.slice(20)} `)).toBe(key);
    expect(cleanKey(`https://door.example/scanner?lang=es#key=${key}`)).toBe(key);
    expect(cleanKey(`«${key}»`)).toBe(key);

    const door = fakeDoor();
    await startScanner({
      doc: document,
      texts: t,
      formats: formatsFor('en'),
      storage: sessionStorage,
      doorFor: door.doorFor,
      linkKey: 'right',
    });
    expect(door.seen.keys).toEqual(['right']);
    expect(sessionStorage.getItem(STORAGE.key)).toBe('right');
    expect($('key-step').hidden).toBe(true);
    // The picked event in full under the picker, wrapped (a phone's select cuts the label).
    expect($('event-detail').hidden).toBe(false);
    expect($('event-detail').textContent).toBe('Harbour LightsSydney · Tue, 01 Dec, 7:00 PM AEDT');
  });

  it('says the key is wrong and stays on the key step', async () => {
    const door = fakeDoor();
    await start(door);
    $<HTMLInputElement>('scanner-key').value = 'wrong';
    await submit('key-form');
    expect($('key-step').hidden).toBe(false);
    expect($('key-error').textContent).toBe(t('wrongKey'));
    expect(sessionStorage.getItem(STORAGE.key)).toBeNull();
  });

  it('goes straight to scanning with the key kept in this tab, on the event picked before', async () => {
    sessionStorage.setItem(STORAGE.key, 'right');
    sessionStorage.setItem(STORAGE.event, '2');
    await start(fakeDoor());
    expect($('key-step').hidden).toBe(true);
    expect($<HTMLSelectElement>('event').value).toBe('2');
  });

  it('returns to the key step when the server stops accepting the key during a scan', async () => {
    sessionStorage.setItem(STORAGE.key, 'right');
    await start(fakeDoor(EVENTS, { kind: 'unauthorized' }));
    $<HTMLInputElement>('code').value = 'TP1.1.2.abc';
    await submit('code-form');
    expect($('scan-step').hidden).toBe(true);
    expect($('key-error').textContent).toBe(t('wrongKey'));
    expect(sessionStorage.getItem(STORAGE.key)).toBeNull();
  });

  it('shows INVALID for a pass the server refuses, and a network message when it cannot be reached', async () => {
    sessionStorage.setItem(STORAGE.key, 'right');
    await start(fakeDoor(EVENTS, { kind: 'invalid' }));
    $<HTMLInputElement>('code').value = 'nonsense';
    await submit('code-form');
    expect($('result').dataset.tone).toBe('bad');
    expect($('result').querySelector('.verdict')?.textContent).toBe('INVALID');

    document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(html)![1];
    await start(fakeDoor(EVENTS, { kind: 'network' }));
    $<HTMLInputElement>('code').value = 'TP1.1.2.abc';
    await submit('code-form');
    expect($('result').textContent).toBe(t('network'));
  });

  it('asks to pick an event when there is none to pick', async () => {
    sessionStorage.setItem(STORAGE.key, 'right');
    const door = fakeDoor({ kind: 'events', events: [] });
    await start(door);
    expect($('no-events').hidden).toBe(false);
    $<HTMLInputElement>('code').value = 'TP1.1.2.abc';
    await submit('code-form');
    expect($('result').textContent).toBe(t('pickEvent'));
    expect(door.seen.checkIns).toEqual([]);
  });
});

describe('the door scanner page with an offline-capable door', () => {
  it('shows offline, the queue and the admissions list age, marks offline verdicts and lists sync conflicts', async () => {
    sessionStorage.setItem(STORAGE.key, 'right');
    const base = fakeDoor(EVENTS, { ...admitted, offline: true });
    let report: ((s: DoorStatus) => void) | null = null;
    const watchedEvents: number[] = [];
    const doorFor = (key: string) => ({
      ...base.doorFor(key),
      watch: (eventId: number, onStatus: (s: DoorStatus) => void) => {
        watchedEvents.push(eventId);
        report = onStatus;
        return () => undefined;
      },
      sync: () => Promise.resolve(),
      refresh: () => Promise.resolve(),
    });
    await startScanner({ doc: document, texts: t, formats: formatsFor('en'), storage: sessionStorage, doorFor });
    expect(watchedEvents).toEqual([1]);
    const takenAt = new Date(Date.now() - 3 * 60_000).toISOString();
    report!({ online: false, queued: 2, snapshotTakenAt: takenAt, conflicts: [], lastSync: null });
    const line = $('door-status');
    expect(line.hidden).toBe(false);
    expect(line.dataset.online).toBe('false');
    expect(line.textContent).toBe(
      `${t('offline')} · 2 check-ins waiting to sync · admissions list updated 3 minutes ago`,
    );
    expect($('conflicts').hidden).toBe(true);

    $<HTMLInputElement>('code').value = 'TP1.1.2.abc';
    await submit('code-form');
    expect($('result').querySelector('.verdict')?.textContent).toBe('ADMITTED');
    expect($('result').textContent).toContain(t('decidedOffline'));

    report!({
      online: true,
      queued: 0,
      snapshotTakenAt: new Date().toISOString(),
      conflicts: [
        {
          itemId: 'x',
          eventId: 1,
          holderName: 'Alice',
          userTicketId: 5,
          ticketName: 'GA',
          reason: 'already_used',
          scannedAt: '2026-12-01T08:00:00.000Z',
        },
      ],
      lastSync: null,
    });
    expect(line.textContent).toMatch(/^Online · Nothing waiting to sync · admissions list updated /);
    expect($('conflicts').hidden).toBe(false);
    expect($('conflict-list').textContent).toContain('Alice · GA · already admitted at another door');

    const select = $<HTMLSelectElement>('event');
    select.value = '2';
    select.dispatchEvent(new Event('change'));
    expect(watchedEvents).toEqual([1, 2]);
  });
});

describe('issue 48: the door shows its mode and zone, and says why the entry rules refused', () => {
  it('shows "Exit · VIP" in the header from the door info, and names the zone in a wrong-zone refusal', async () => {
    sessionStorage.setItem(STORAGE.key, 'right');
    const refusal: CheckInOutcome = {
      kind: 'answered',
      answer: {
        holderName: 'Alice',
        admitted: [],
        alreadyUsed: [],
        listedForResale: [],
        refused: [{ userTicketId: 5, ticketName: 'GA', reason: 'wrong_zone', zones: ['Backstage'] }],
      },
    };
    const base = fakeDoor(EVENTS, refusal);
    let report: ((s: DoorStatus) => void) | null = null;
    let info = { name: 'Gate 3', mode: 'exit' as 'entry' | 'exit', zone: 'VIP' as string | null };
    const doorFor = (key: string) => ({
      ...base.doorFor(key),
      watch: (_eventId: number, onStatus: (s: DoorStatus) => void) => {
        report = onStatus;
        return () => undefined;
      },
      info: () => Promise.resolve(info),
    });
    await startScanner({ doc: document, texts: t, formats: formatsFor('en'), storage: sessionStorage, doorFor });
    const mode = $('door-mode');
    expect(mode.hidden).toBe(true);
    const status = { online: true, queued: 0, snapshotTakenAt: null, conflicts: [], lastSync: null };
    report!(status);
    await settle();
    expect(mode.hidden).toBe(false);
    expect(mode.textContent).toBe('Exit · VIP');
    expect(mode.dataset.mode).toBe('exit');

    $<HTMLInputElement>('code').value = 'TP1.1.2.abc';
    await submit('code-form');
    expect($('result').className).toContain('reason');
    expect($('result').querySelector('.verdict')?.textContent).toBe('WRONG ZONE');
    expect($('result').querySelector('.detail')?.textContent).toBe('Not for this zone: VIP (valid for Backstage)');

    // The organiser made it an entry door of no zone: the next refresh says so.
    info = { name: 'Gate 3', mode: 'entry', zone: null };
    report!(status);
    await settle();
    expect(mode.textContent).toBe('Entry');
    $<HTMLButtonElement>('change-key').click();
    expect(mode.hidden).toBe(true);
  });
});

describe('issue 20: every code the contract makes, wedge scanners, and the sync summary', () => {
  /** A device code's length: the longest the contract makes. */
  const deviceCode = 'TP2.' + 'A'.repeat(PASS_CODE_MAX_LENGTH - 4);

  it("ties the code field's maxlength to the contract's longest pass code, and passes a device code whole", async () => {
    const attr = /<input[^>]*id="code"[^>]*>/.exec(html)![0];
    const fixed = /maxlength="(\d+)"/.exec(attr);
    if (fixed) expect(Number(fixed[1])).toBeGreaterThanOrEqual(PASS_CODE_MAX_LENGTH);
    sessionStorage.setItem(STORAGE.key, 'right');
    const door = fakeDoor();
    await start(door);
    expect($<HTMLInputElement>('code').maxLength).toBe(PASS_CODE_MAX_LENGTH);
    $<HTMLInputElement>('code').value = deviceCode;
    await submit('code-form');
    expect(door.seen.checkIns).toEqual([{ code: deviceCode, eventId: 1 }]);
  });

  it('takes a keyboard-wedge scan typed while the field is not focused (idle page), then Enter', async () => {
    sessionStorage.setItem(STORAGE.key, 'right');
    const door = fakeDoor();
    await start(door);
    const code = $<HTMLInputElement>('code');
    $<HTMLButtonElement>('change-key').focus();
    code.blur();
    const typedOn = (el: HTMLElement, key: string) =>
      el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    // The first character moves the focus to the field; the rest (typed on the page) follow into it.
    for (const ch of deviceCode) typedOn(document.body, ch);
    expect(document.activeElement).toBe(code);
    expect(code.value).toBe(deviceCode);
    // Modified keys (shortcuts) and keys typed into a text field are left alone.
    expect(typedOn(document.body, 'Shift')).toBe(true);
    expect(
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'r', ctrlKey: true, cancelable: true })),
    ).toBe(true);
    await submit('code-form');
    expect(door.seen.checkIns).toEqual([{ code: deviceCode, eventId: 1 }]);
  });

  it("after a sync shows the server's final word instead of the stale verdict, refused ones listed", async () => {
    sessionStorage.setItem(STORAGE.key, 'right');
    const base = fakeDoor(EVENTS, { ...admitted, offline: true });
    let report: ((s: DoorStatus) => void) | null = null;
    const doorFor = (key: string) => ({
      ...base.doorFor(key),
      watch: (_eventId: number, onStatus: (s: DoorStatus) => void) => {
        report = onStatus;
        return () => undefined;
      },
      sync: () => Promise.resolve(),
      refresh: () => Promise.resolve(),
    });
    await startScanner({ doc: document, texts: t, formats: formatsFor('en'), storage: sessionStorage, doorFor });
    $<HTMLInputElement>('code').value = 'TP2.x';
    await submit('code-form');
    expect($('result').textContent).toContain(t('decidedOffline'));
    const refused = {
      itemId: 'x',
      eventId: 1,
      holderName: 'Bob',
      userTicketId: 9,
      ticketName: 'VIP',
      reason: 'already_used' as const,
      scannedAt: '2026-12-01T08:00:00.000Z',
    };
    const status = {
      online: true,
      queued: 0,
      snapshotTakenAt: null,
      conflicts: [refused],
      lastSync: { id: 1, synced: 3, refused: 1, conflicts: [refused] },
    };
    report!(status);
    const result = $('result');
    expect(result.querySelector('.verdict')?.textContent).toBe('3 check-ins synced, 1 refused');
    expect(result.dataset.tone).toBe('warn');
    expect(result.textContent).not.toContain(t('decidedOffline'));
    expect(result.querySelector('li')?.textContent).toBe('Bob · VIP · already admitted at another door');
    // The same summary reported again (a status refresh) does not replace a newer verdict.
    $<HTMLInputElement>('code').value = 'TP2.y';
    await submit('code-form');
    report!(status);
    expect(result.querySelector('.verdict')?.textContent).toBe('ADMITTED');
    report!({ ...status, conflicts: [], lastSync: { id: 2, synced: 2, refused: 0, conflicts: [] } });
    expect(result.querySelector('.verdict')?.textContent).toBe('2 check-ins synced, none refused');
    expect(result.dataset.tone).toBe('ok');

    const es = catalogues.es;
    expect([es.synced_other, es.refused_one, es.notForThisEvent, es.forgetDoor].every(Boolean)).toBe(true);
  });

  it('says NOT FOR THIS DOOR for an event the door key does not admit to', async () => {
    sessionStorage.setItem(STORAGE.key, 'right');
    await start(fakeDoor(EVENTS, { kind: 'not_for_this_event' }));
    $<HTMLInputElement>('code').value = 'TP2.x';
    await submit('code-form');
    expect($('result').querySelector('.verdict')?.textContent).toBe(t('notForThisEvent'));
    expect($('result').dataset.tone).toBe('bad');
  });
});
