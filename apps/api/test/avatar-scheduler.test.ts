/**
 * The avatar fair queue (avatar.scheduler.ts, issue 39 item 9), with work the test controls: which upload gets a
 * process, who is refused or pushed out, when a running upload is stopped for a cheaper address.
 */
import { describe, expect, it } from 'vitest';
import { createAvatarScheduler, type Costed } from '../src/modules/profile/avatar.scheduler.js';

/** A piece of work the test finishes by hand; it fails when its signal aborts, as the pool does. */
function controlled() {
  const log: string[] = [];
  const pending = new Map<string, (cpuMs: number) => void>();
  const work = (name: string) => (signal: AbortSignal) =>
    new Promise<Costed<string>>((resolve, reject) => {
      log.push(`start ${name}`);
      pending.set(name, (cpuMs) => resolve({ value: name, cpuMs }));
      signal.addEventListener('abort', () => reject(new Error('aborted')));
    });
  const finish = async (name: string, cpuMs: number) => {
    pending.get(name)!(cpuMs);
    pending.delete(name);
    await new Promise((r) => setTimeout(r, 0));
  };
  /** Whether `name` started and is not finished yet. */
  const running = (name: string) => pending.has(name);
  return { log, work, finish, running };
}

const settled = <T>(p: Promise<T>) =>
  p.then(
    (v) => `ok ${String(v)}`,
    (e: Error) => e.message,
  );
const tick = () => new Promise((r) => setTimeout(r, 0));

function scheduler(
  opts: {
    maxQueue?: number;
    preemptMarginMs?: number;
    maxCostMs?: number;
    now?: () => number;
    agingRate?: number;
    startCostMs?: number;
    rasterMaxMs?: number;
  } = {},
) {
  return createAvatarScheduler({
    concurrency: 2,
    maxQueue: opts.maxQueue ?? 8,
    deadlineMs: 60_000,
    preemptMarginMs: opts.preemptMarginMs ?? 1000,
    halfLifeMs: 60_000,
    maxCostMs: opts.maxCostMs ?? Infinity,
    agingRate: opts.agingRate ?? 0,
    agingMaxMs: 2000,
    startCostMs: opts.startCostMs ?? 0,
    // Estimates of 750 below stand for SVGs (a full budget), 400 and less for photos.
    rasterMaxMs: opts.rasterMaxMs ?? 500,
    now: opts.now ?? (() => 0),
  });
}

describe('avatar fair queue', () => {
  it("a free process takes the cheapest address's upload, not the oldest", async () => {
    const s = scheduler({ preemptMarginMs: Infinity });
    const w = controlled();
    // The attacker's address has spent 900 ms already.
    const a1 = settled(s.run('attacker', w.work('a1')));
    await w.finish('a1', 900);
    expect(await a1).toBe('ok a1');
    const running = [s.run('attacker', w.work('a2')), s.run('attacker', w.work('a3'))];
    const queued = [settled(s.run('attacker', w.work('a4'))), settled(s.run('holder', w.work('h1')))];
    expect(s.stats()).toEqual({ busy: 2, queued: 2 });
    await w.finish('a2', 900);
    expect(w.log.at(-1)).toBe('start h1');
    await w.finish('h1', 50);
    await w.finish('a3', 900);
    await w.finish('a4', 900);
    expect(await Promise.all(queued)).toEqual(['ok a4', 'ok h1']);
    await Promise.all(running);
    expect(s.stats()).toEqual({ busy: 0, queued: 0 });
  });

  it('a full queue refuses a newcomer no cheaper than the dearest waiting, and pushes out a dearer one', async () => {
    const s = scheduler({ maxQueue: 2, preemptMarginMs: Infinity });
    const w = controlled();
    const warm = s.run('attacker', w.work('a0'));
    await w.finish('a0', 5000);
    await warm;
    const all = [
      settled(s.run('other', w.work('o1'))),
      settled(s.run('other', w.work('o2'))),
      settled(s.run('attacker', w.work('a1'))),
      settled(s.run('other', w.work('o3'))),
    ];
    // o1 and o2 run, a1 and o3 wait: the queue is full.
    expect(s.stats()).toEqual({ busy: 2, queued: 2 });
    // Another attacker upload costs no less than the dearest waiting (a1): refused.
    expect(await settled(s.run('attacker', w.work('a2')))).toBe('api.profile.avatar_busy');
    // A holder never seen pushes a1 out.
    const holder = settled(s.run('holder', w.work('h1')));
    expect(await all[2]).toBe('api.profile.avatar_busy');
    await w.finish('o1', 10);
    await w.finish('o2', 10);
    await w.finish('o3', 10);
    await w.finish('h1', 10);
    expect(await holder).toBe('ok h1');
  });

  it('stops a running upload of an address that spent a full budget for a cheaper one; never an ordinary holder', async () => {
    const s = scheduler();
    const w = controlled();
    const warm = s.run('attacker', w.work('a0'));
    await w.finish('a0', 1000);
    await warm;
    // An ordinary holder's address spent 400 ms; both processes busy.
    const warmHolder = s.run('holder', w.work('h0'));
    await w.finish('h0', 400);
    await warmHolder;
    const a1 = settled(s.run('attacker', w.work('a1')));
    const h1 = settled(s.run('holder', w.work('h1')));
    const newcomer = settled(s.run('newcomer', w.work('n1')));
    await tick();
    // The attacker's upload (1000 ms ≥ 0 + 1000) is stopped; the holder's (400 ms) is not.
    expect(await a1).toBe('api.profile.avatar_busy');
    expect(w.log.at(-1)).toBe('start n1');
    await w.finish('n1', 50);
    await w.finish('h1', 50);
    expect([await newcomer, await h1]).toEqual(['ok n1', 'ok h1']);
  });

  it('control: without preemption the cheaper address waits for the attacker (the test above can fail)', async () => {
    const s = scheduler({ preemptMarginMs: Infinity });
    const w = controlled();
    const warm = s.run('attacker', w.work('a0'));
    await w.finish('a0', 1000);
    await warm;
    const running = [settled(s.run('attacker', w.work('a1'))), settled(s.run('attacker', w.work('a2')))];
    const newcomer = settled(s.run('newcomer', w.work('n1')));
    await tick();
    expect(w.log).not.toContain('start n1');
    await w.finish('a1', 1000);
    expect(w.log.at(-1)).toBe('start n1');
    await w.finish('a2', 1000);
    await w.finish('n1', 10);
    expect(await Promise.all([...running, newcomer])).toEqual(['ok a1', 'ok a2', 'ok n1']);
  });

  it('orders fresh addresses by what their uploads are expected to cost: a small PNG goes before queued 58 KB SVGs', async () => {
    const s = scheduler({ maxQueue: 3, preemptMarginMs: Infinity });
    const w = controlled();
    // Five fresh attacker addresses, each an SVG expected to cost a full budget: two run, three fill the queue.
    const attackers = [1, 2, 3, 4, 5].map((i) => settled(s.run(`a${i}`, w.work(`a${i}`), 750)));
    expect(s.stats()).toEqual({ busy: 2, queued: 3 });
    // A holder never seen, a 4×4 PNG: pushes out the last come of the queue and is next.
    const holder = settled(s.run('holder', w.work('h1'), 0));
    expect(await attackers[4]).toBe('api.profile.avatar_busy');
    await w.finish('a1', 750);
    expect(w.log.at(-1)).toBe('start h1');
    await w.finish('h1', 5);
    expect(await holder).toBe('ok h1');
  });

  it('stops a running upload expected to cost a full budget for a cheap one, never one expected to cost less', async () => {
    const s = scheduler({ preemptMarginMs: 750 });
    const w = controlled();
    const big = settled(s.run('a1', w.work('big'), 750));
    const mid = settled(s.run('a2', w.work('mid'), 400));
    const holder = settled(s.run('holder', w.work('h1'), 0));
    await tick();
    expect(await big).toBe('api.profile.avatar_busy');
    expect(w.log).toEqual(['start big', 'start mid', 'start h1']);
    await w.finish('mid', 400);
    await w.finish('h1', 5);
    expect([await mid, await holder]).toEqual(['ok mid', 'ok h1']);
  });

  it('refuses an address at its cost ceiling without starting anything, until its cost decays', async () => {
    let clock = 0;
    const s = scheduler({ maxCostMs: 3000, now: () => clock });
    const w = controlled();
    const spent = s.run('attacker', w.work('a1'));
    await w.finish('a1', 3000);
    await spent;
    expect(await settled(s.run('attacker', w.work('a2')))).toBe('api.profile.avatar_busy');
    expect(w.log).toEqual(['start a1']);
    const holder = settled(s.run('holder', w.work('h1')));
    expect(w.log.at(-1)).toBe('start h1');
    await w.finish('h1', 10);
    expect(await holder).toBe('ok h1');
    clock = 60_000;
    const again = settled(s.run('attacker', w.work('a3')));
    expect(w.log.at(-1)).toBe('start a3');
    await w.finish('a3', 10);
    expect(await again).toBe('ok a3');
  });

  it("an address's cost halves every half-life", async () => {
    let clock = 0;
    const s = scheduler({ now: () => clock });
    const w = controlled();
    const done = s.run('a', w.work('a'));
    await w.finish('a', 800);
    await done;
    expect(s.cost('a')).toBe(800);
    clock = 60_000;
    expect(s.cost('a')).toBe(400);
    expect(s.cost('never-seen')).toBe(0);
  });

  it('answers api.profile.avatar_timeout past the deadline, waiting or running, and frees the process', async () => {
    const s = createAvatarScheduler({
      concurrency: 1,
      maxQueue: 8,
      deadlineMs: 30,
      preemptMarginMs: Infinity,
      halfLifeMs: 60_000,
      maxCostMs: Infinity,
      agingRate: 0,
      agingMaxMs: 0,
      startCostMs: 0,
      rasterMaxMs: 0,
    });
    const w = controlled();
    const both = [settled(s.run('x', w.work('x1'))), settled(s.run('y', w.work('y1')))];
    expect(await Promise.all(both)).toEqual(['api.profile.avatar_timeout', 'api.profile.avatar_timeout']);
    expect(s.stats()).toEqual({ busy: 0, queued: 0 });
  });

  it('a waiting photo moves up as it waits: a stream of 1 × 1 PNGs from fresh addresses no longer starves it (issue 39 item 9, tenth re-run: 0 of 4); control without ageing', async () => {
    for (const agingRate of [4, 0]) {
      let clock = 0;
      const s = scheduler({ preemptMarginMs: Infinity, agingRate, now: () => clock });
      const w = controlled();
      let fresh = 0;
      const flood = () => void settled(s.run(`10.0.0.${++fresh}`, w.work(`png${fresh}`), 0));
      // Both processes busy with the flood, two more waiting; then the photo (a 3-megapixel JPEG: 150 ms).
      for (let i = 0; i < 4; i++) flood();
      const photo = settled(s.run('192.0.2.7', w.work('photo'), 150));
      // Each PNG takes 10 ms; every one that ends is replaced by a new one from a new address.
      for (let round = 0; round < 40 && !w.log.includes('start photo'); round++) {
        clock += 10;
        const running = w.log.filter((l) => l.startsWith('start png')).map((l) => l.slice(6));
        for (const name of running.slice(-2)) {
          flood();
          await w.finish(name, 10);
        }
      }
      if (agingRate) {
        expect(w.log, 'started within 100 ms of waiting').toContain('start photo');
        await w.finish('photo', 150);
        expect(await photo).toBe('ok photo');
      } else expect(w.log).not.toContain('start photo');
    }
  });

  it("charges every upload asked for to each of its keys, its CPU to its address: a holder's cost follows them to fresh addresses", async () => {
    const s = scheduler({ maxCostMs: 250, startCostMs: 100 });
    const w = controlled();
    for (const i of [1, 2, 3]) {
      const upload = settled(s.run([`10.0.0.${i}`, 'holder:7'], w.work(`a${i}`)));
      await w.finish(`a${i}`, 50);
      expect(await upload).toBe(`ok a${i}`);
    }
    expect(s.cost('10.0.0.1')).toBe(150);
    expect(s.cost('holder:7')).toBe(300);
    // A new address, the same holder: at the ceiling.
    expect(await settled(s.run(['10.0.0.4', 'holder:7'], w.work('a4')))).toBe('api.profile.avatar_busy');
    expect(w.log).not.toContain('start a4');
    // Another holder at a fresh address is not.
    const other = settled(s.run(['10.0.0.5', 'holder:8'], w.work('b')));
    await w.finish('b', 10);
    expect(await other).toBe('ok b');
  });

  it("a photo at a full queue pushes out a repeat uploader's 1 × 1 PNG, however long it waited: starting a process costs its keys (issue 39 item 9, tenth re-run: 4 of 4 refused); control without a start cost", async () => {
    for (const startCostMs of [100, 0]) {
      let clock = 0;
      const s = scheduler({ maxQueue: 2, preemptMarginMs: Infinity, agingRate: 4, startCostMs, now: () => clock });
      const w = controlled();
      // Each attacker account has had two 1 × 1 PNGs decoded (5 ms of CPU each), from addresses never seen since.
      const holders = ['holder:1', 'holder:2', 'holder:3', 'holder:4'];
      for (const [i, h] of holders.entries())
        for (const round of [0, 1]) {
          const first = settled(s.run([`10.${round}.0.${i}`, h], w.work(`warm${round}.${i}`), 0));
          await w.finish(`warm${round}.${i}`, 5);
          expect(await first).toBe(`ok warm${round}.${i}`);
        }
      // Now their next PNGs, from fresh addresses, take both processes and both places in the queue, and wait.
      const queued = holders.map((h, i) => settled(s.run([`10.9.0.${i}`, h], w.work(`png${i}`), 0)));
      clock += 200;
      const photo = settled(s.run(['192.0.2.7', 'holder:9'], w.work('photo'), 150));
      await tick();
      if (startCostMs) {
        // The last come of the dearest is pushed out; the photo waits in its place, behind the one that waited longer.
        expect(await queued[3]).toBe('api.profile.avatar_busy');
        await w.finish('png0', 5);
        expect(w.log.at(-1)).toBe('start png2');
        await w.finish('png1', 5);
        expect(w.log.at(-1)).toBe('start photo');
        await w.finish('photo', 40);
        expect(await photo).toBe('ok photo');
        await w.finish('png2', 5);
      } else {
        expect(await photo).toBe('api.profile.avatar_busy');
        for (const name of ['png0', 'png1', 'png2', 'png3']) await w.finish(name, 5);
      }
      await Promise.all(queued);
    }
  });

  it("a ticket holder's photo pushes a newcomer's upload out of a full queue and goes first; newcomers wait in half the places (issue 39 item 9, eleventh re-run: 12-megapixel photos 0 of 4); control: the holder as a newcomer is refused", async () => {
    for (const holderIsNewcomer of [false, true]) {
      const s = scheduler({ maxQueue: 4, preemptMarginMs: Infinity, startCostMs: 100 });
      const w = controlled();
      const newcomer = { newcomer: true };
      // First-time accounts at fresh addresses: both processes, then two waiting (their half of four places).
      const flood = [0, 1, 2, 3].map((i) =>
        settled(s.run([`10.0.0.${i}`, `holder:${i}`], w.work(`png${i}`), 0, newcomer)),
      );
      // A fifth newcomer finds the newcomers' half full, and is no cheaper: refused.
      expect(await settled(s.run(['10.0.0.9', 'holder:9'], w.work('png9'), 0, newcomer))).toBe(
        'api.profile.avatar_busy',
      );
      expect(s.stats()).toEqual({ busy: 2, queued: 2 });
      // Fill the rest of the queue with newcomers? They may not: the holder's place is kept.
      const photo = settled(s.run(['192.0.2.7', 'holder:42'], w.work('photo'), 600, { newcomer: holderIsNewcomer }));
      if (!holderIsNewcomer) {
        expect(s.stats()).toEqual({ busy: 2, queued: 3 });
        // The next free process is the holder's, before the newcomers who waited longer.
        await w.finish('png0', 2);
        expect(w.log.at(-1)).toBe('start photo');
        await w.finish('photo', 300);
        expect(await photo).toBe('ok photo');
      } else expect(await photo).toBe('api.profile.avatar_busy');
      for (const name of ['png0', 'png1', 'png2', 'png3']) if (w.running(name)) await w.finish(name, 2);
      await new Promise((resolve) => setTimeout(resolve, 0));
      for (const name of ['png2', 'png3']) if (w.running(name)) await w.finish(name, 2);
      await Promise.all(flood);
    }
  });

  it('a ticket holder at a queue full of newcomers pushes out the dearest of them, whatever it costs', async () => {
    const s = scheduler({ maxQueue: 2, preemptMarginMs: Infinity });
    const w = controlled();
    const newcomer = { newcomer: true };
    const flood = [0, 1, 2].map((i) => settled(s.run(`10.0.0.${i}`, w.work(`png${i}`), 0, newcomer)));
    // Two running, and one newcomer waiting (half of two places); one holder's upload takes the other place.
    const first = settled(s.run('192.0.2.1', w.work('first'), 600));
    expect(s.stats()).toEqual({ busy: 2, queued: 2 });
    // A second holder finds the queue full: the newcomer's upload goes, not the holder's before it.
    const second = settled(s.run('192.0.2.2', w.work('second'), 600));
    expect(await flood[2]).toBe('api.profile.avatar_busy');
    for (const name of ['png0', 'png1']) await w.finish(name, 2);
    for (const name of ['first', 'second']) await w.finish(name, 300);
    expect([await first, await second]).toEqual(['ok first', 'ok second']);
  });

  it("between ticket holders at a full queue the keys that spent the most give way, not the dearest upload: a 12-megapixel photo pushes out a repeat uploader's 1 × 1 PNG (issue 39 item 9, twelfth re-run: 4 of 4 refused)", async () => {
    const s = scheduler({ maxQueue: 2, preemptMarginMs: Infinity, startCostMs: 100 });
    const w = controlled();
    // Four accounts that hold tickets have each had one 1 × 1 PNG decoded, from addresses never seen since.
    for (const i of [1, 2, 3, 4]) {
      const warm = settled(s.run([`10.0.0.${i}`, `holder:${i}`], w.work(`warm${i}`), 0));
      await w.finish(`warm${i}`, 5);
      await warm;
    }
    const queued = [1, 2, 3, 4].map((i) => settled(s.run([`10.9.0.${i}`, `holder:${i}`], w.work(`png${i}`), 0)));
    expect(s.stats()).toEqual({ busy: 2, queued: 2 });
    // A holder who has spent nothing: their photo is expected to cost 600 ms, the PNGs nothing; it takes a place.
    const photo = settled(s.run(['192.0.2.7', 'holder:9'], w.work('photo'), 600));
    expect(await queued[3]).toBe('api.profile.avatar_busy');
    await w.finish('png1', 5);
    await w.finish('png2', 5);
    // By dearness the PNG that waited longer went first; the photo follows.
    for (const name of ['png3', 'photo']) if (w.log.includes(`start ${name}`)) await w.finish(name, 5);
    for (const name of ['png3', 'photo']) if (w.running(name)) await w.finish(name, 5);
    expect(await photo).toBe('ok photo');
    await Promise.all(queued);
  });
});

/**
 * The thirteenth re-run (audit/i39m, probes (a), (a2), (b)), with the service's own numbers (avatar.service.ts: 2
 * processes, 8 places, start 100 ms, ageing 4 ms/ms up to 2,000, margin 750, the dearest raster 2,000): a holder of a
 * ticket's 12-megapixel photo (a JPEG expected to cost 600 ms, an iPhone's HEIC 1,800) was stopped while it ran for a
 * 1 × 1 PNG, a newcomer's included, and pushed out while it waited by the next 1 × 1 PNG of an account that had
 * spent less than the photo's estimate.
 */
describe("a holder's large photo under 1 × 1 PNGs (issue 39 item 9, thirteenth re-run)", () => {
  const service = (now = () => 0, rasterMaxMs = 2000) =>
    createAvatarScheduler({
      concurrency: 2,
      maxQueue: 8,
      deadlineMs: 10_000,
      preemptMarginMs: 750,
      halfLifeMs: 60_000,
      maxCostMs: 3000,
      agingRate: 4,
      agingMaxMs: 2000,
      startCostMs: 100,
      rasterMaxMs,
      now,
    });
  const stillRunning = <T>(p: Promise<T>) =>
    Promise.race([p, new Promise((r) => setTimeout(() => r('still running'), 50))]);
  /**
   * Finishes the named uploads as they start, until none is left running (one pushed out before it started has
   * nothing to finish; one that starts when another finishes is finished in turn).
   */
  async function finishStarted(w: ReturnType<typeof controlled>, names: string[]) {
    const left = new Set(names);
    for (let more = true; more;) {
      more = false;
      for (const name of left)
        if (w.log.includes(`start ${name}`)) {
          left.delete(name);
          await w.finish(name, 1);
          more = true;
        }
    }
  }

  it("a running 12-megapixel HEIC is not stopped for a newcomer's 1 × 1 PNG (control: counted as an SVG, it is)", async () => {
    for (const rasterMaxMs of [2000, 1000]) {
      const s = service(() => 0, rasterMaxMs);
      const w = controlled();
      const heic = settled(s.run(['ip:v', 'holder:v'], w.work('heic'), 1800));
      const other = settled(s.run(['ip:o', 'holder:o'], w.work('other'), 150));
      await tick();
      const png = settled(s.run(['ip:n', 'holder:n'], w.work('png'), 0, { newcomer: true }));
      // A newcomer's PNG stops no holder's upload, however dear; a holder's PNG stops an SVG (the control).
      const holderPng = settled(s.run(['ip:h', 'holder:h'], w.work('hpng'), 0));
      await tick();
      const outcome = await stillRunning(heic);
      expect(outcome, `rasterMaxMs ${rasterMaxMs}`).toBe(
        rasterMaxMs === 2000 ? 'still running' : 'api.profile.avatar_busy',
      );
      await finishStarted(w, ['other', 'png', 'hpng', 'heic']);
      await Promise.all([other, png, holderPng]);
    }
  });

  it('a running 12-megapixel JPEG is not stopped once its holder was refused twice (holder cost 300)', async () => {
    const s = service();
    const w = controlled();
    for (const name of ['v0', 'v1']) {
      const done = settled(s.run([`ip:${name}`, 'holder:v'], w.work(name), 0));
      await w.finish(name, 1);
      await done;
    }
    const jpeg = settled(s.run(['ip:v', 'holder:v'], w.work('jpeg'), 600));
    const other = settled(s.run(['ip:o', 'holder:o'], w.work('other'), 150));
    await tick();
    const png = settled(s.run(['ip:f', 'holder:f'], w.work('png'), 0));
    await tick();
    expect(await stillRunning(jpeg)).toBe('still running');
    for (const name of ['other', 'png', 'jpeg']) await w.finish(name, 5);
    expect(await Promise.all([other, png, jpeg])).toEqual(['ok other', 'ok png', 'ok jpeg']);
  });

  it('a waiting 12-megapixel JPEG is not pushed out by the next 1 × 1 PNG of holders that spent less than its estimate (control: as an SVG, it is)', async () => {
    for (const rasterMaxMs of [2000, 500]) {
      let clock = 0;
      const s = service(() => clock, rasterMaxMs);
      const w = controlled();
      // Ten flooding holders, each asked for one upload before (cost 100), then one each now: 2 run, 8 wait.
      for (let i = 0; i < 10; i++)
        await s.run([`ip:p${i}`, `holder:f${i}`], () => Promise.resolve({ value: 0, cpuMs: 1 }), 0);
      const flood: Promise<string>[] = [];
      for (let i = 0; i < 10; i++) flood.push(settled(s.run([`ip:q${i}`, `holder:f${i}`], w.work(`f${i}`), 0)));
      clock += 50;
      // The victim (cost 0) pushes out a flooding upload whose keys spent 200 (> 0 + 100).
      const jpeg = settled(s.run(['ip:v', 'holder:v'], w.work('jpeg'), 600));
      expect(await Promise.race([...flood, stillRunning(jpeg)])).toBe('api.profile.avatar_busy');
      // The flooders' next PNGs (each keyed 200 before its start) come at the full queue.
      clock += 50;
      const next = [
        settled(s.run(['ip:r1', 'holder:f8'], w.work('f8b'), 0)),
        settled(s.run(['ip:r2', 'holder:f9'], w.work('f9b'), 0)),
      ];
      await tick();
      const outcome = await stillRunning(jpeg);
      expect(outcome, `rasterMaxMs ${rasterMaxMs}`).toBe(
        rasterMaxMs === 2000 ? 'still running' : 'api.profile.avatar_busy',
      );
      await finishStarted(w, [...Array.from({ length: 10 }, (_, i) => `f${i}`), 'f8b', 'f9b', 'jpeg']);
      await Promise.all([...flood, ...next, jpeg]);
    }
  });
});
