/**
 * Step-up codes under races (issue 47, decision 048): a crowd holding one stolen session sends 100 wrong codes at
 * once to get more than 5 tries at a code; 10 checks of the right code at once try to use it more than once; 20 code
 * requests at once try to mail the victim more than one code a minute.
 *
 * On PostgreSQL each race runs on two app instances on one database, with a control that runs the same race without
 * the session's row lock (`stepUpLocks.enabled = false`): it must find more than 5 tries counted, or more than one
 * code mailed, which shows the test can catch what the lock prevents (up to five rounds: `untilRaceLost`). On the embedded database one connection runs one transaction at a time, so
 * nothing races and there is no control.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../src/app.js';
import { stepUpLocks } from '../src/modules/auth/auth.step-up.js';
import { bearer, createTestApp, createTestApps, onPostgres, untilRaceLost } from './helper.js';

interface Race {
  apps: BuiltApp[];
  signIn: (email: string) => Promise<string>;
  lastCodeFor: (email: string) => string;
  /** How many mails went to `email`. */
  mailsTo: (email: string) => number;
  close: () => Promise<void>;
}
let race: Race | undefined;

async function startRace(): Promise<Race> {
  const t = onPostgres() ? await createTestApps(2) : await createTestApp();
  return {
    apps: 'apps' in t ? t.apps : [t.app],
    signIn: async (email) => (await t.signIn(email)).accessToken,
    lastCodeFor: (email) => t.mail.lastCodeFor(email),
    mailsTo: (email) => t.mail.sent.filter((m) => m.to === email).length,
    close: () => t.close(),
  };
}

afterEach(async () => {
  stepUpLocks.enabled = true;
  await race?.close();
  race = undefined;
});

/** `n` checks of `otp` at once, spread over the instances; the answers' messages (`ok` for a 200). */
async function checks(token: string, otp: string, n: number): Promise<string[]> {
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      race!.apps[i % race!.apps.length].inject({
        method: 'POST',
        url: '/v1/auth/step-up/verify',
        headers: bearer(token),
        payload: { otp },
      }),
    ),
  );
  return answers.map((r) => (r.statusCode === 200 ? 'ok' : r.json<{ message: string }>().message));
}

/** `n` step-up code requests of `token` at once, spread over the instances; their statuses. */
async function requests(token: string, n: number): Promise<number[]> {
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      race!.apps[i % race!.apps.length].inject({
        method: 'POST',
        url: '/v1/auth/step-up',
        headers: bearer(token),
        payload: { action: 'gift' },
      }),
    ),
  );
  return answers.map((r) => r.statusCode);
}

/** Signs alice in and asks for a step-up code; her token and the code. */
async function codeAsked(): Promise<{ token: string; code: string }> {
  const token = await race!.signIn('alice@example.com');
  expect(await requests(token, 1)).toEqual([200]);
  return { token, code: race!.lastCodeFor('alice@example.com') };
}

/** Signs alice in, then 20 step-up code requests at once; how many were taken and how many codes were mailed. */
async function twentyRequests(): Promise<{ taken: number; mailed: number }> {
  const token = await race!.signIn('alice@example.com');
  const before = race!.mailsTo('alice@example.com');
  const statuses = await requests(token, 20);
  expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  return { taken: statuses.filter((s) => s === 200).length, mailed: race!.mailsTo('alice@example.com') - before };
}

const wrongFor = (code: string) => (code === '000000' ? '000001' : '000000');
/** The tries a race counted against the code (a wrong code answered as such, not refused as no code). */
const tries = (answers: string[]) =>
  answers.filter((m) => m === 'api.auth.wrong_otp' || m === 'api.auth.otp_attempts_exceeded').length;

describe('step-up codes under races', () => {
  it('100 wrong codes at once: five tries, then the code is closed (the right one too)', async () => {
    race = await startRace();
    const { token, code } = await codeAsked();
    const answers = await checks(token, wrongFor(code), 100);
    expect(tries(answers)).toBe(5);
    expect(answers.filter((m) => m === 'api.auth.otp_attempts_exceeded')).toHaveLength(1);
    expect(answers.filter((m) => m === 'api.auth.step_up_no_code')).toHaveLength(95);
    expect(await checks(token, code, 1)).toEqual(['api.auth.step_up_no_code']);
  });

  it('the right code 10 times at once: used once', async () => {
    race = await startRace();
    const { token, code } = await codeAsked();
    const answers = await checks(token, code, 10);
    expect(answers.filter((m) => m === 'ok')).toHaveLength(1);
    expect(answers.filter((m) => m === 'api.auth.step_up_no_code')).toHaveLength(9);
  });

  it('20 code requests of one session at once: one code mailed, the rest refused (one a minute)', async () => {
    race = await startRace();
    expect(await twentyRequests()).toEqual({ taken: 1, mailed: 1 });
  });

  describe.runIf(onPostgres())('controls: without the session lock the same races break', () => {
    it('100 wrong codes at once without the lock: more than five tries', async () => {
      race = await startRace();
      const round = async () => {
        stepUpLocks.enabled = true;
        const { token, code } = await codeAsked();
        stepUpLocks.enabled = false;
        return tries(await checks(token, wrongFor(code), 100));
      };
      expect(await untilRaceLost(round, (n) => n > 5)).toBeGreaterThan(5);
    });

    it('20 code requests at once without the lock: more than one code mailed', async () => {
      race = await startRace();
      stepUpLocks.enabled = false;
      const { mailed } = await untilRaceLost(twentyRequests, (r) => r.mailed > 1);
      expect(mailed).toBeGreaterThan(1);
    });
  });
});
