/**
 * `npx tsx bench/jwt-verify-cost.ts` (decision 034; rerun on Node 24 for issue 42): µs per HS256 verification of
 * one token, one at a time, on the Node that runs it: jose with the key as a `KeyObject` and as a `CryptoKey`
 * imported once, and fast-jwt with a `Buffer` key (node:crypto's HMAC, what auth.tokens.ts uses). Each is run
 * BENCH_N times (default 5,000) after 500 warm-up calls, in 5 alternating rounds; prints each median and minimum (on a
 * busy machine the minimum is the steadier figure).
 */
import { createSecretKey, randomBytes } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { jwtVerify, SignJWT } from 'jose';

const N = Number(process.env.BENCH_N ?? 5000);
const secret = randomBytes(32);
const claims = { sub: '1', sid: 's', aud: 'bench', iss: 'bench' };
const token = await new SignJWT(claims)
  .setProtectedHeader({ alg: 'HS256' })
  .setExpirationTime('1h')
  .setIssuedAt()
  .sign(secret);
const keyObject = createSecretKey(secret);
const cryptoKey = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
const fast = createVerifier({ key: secret, algorithms: ['HS256'], allowedAud: 'bench', allowedIss: 'bench' });
if (createSigner({ key: secret })(claims).split('.').length !== 3) throw new Error('fast-jwt did not sign');

const cases: [string, () => unknown][] = [
  ['jose, KeyObject', () => jwtVerify(token, keyObject, { audience: 'bench', issuer: 'bench' })],
  ['jose, CryptoKey', () => jwtVerify(token, cryptoKey, { audience: 'bench', issuer: 'bench' })],
  ['fast-jwt, Buffer', () => fast(token) as unknown],
];

/** µs per call of `fn` over `n` calls, awaited one at a time. */
async function time(fn: () => unknown, n: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - start) / 1000 / n;
}

const results = new Map<string, number[]>(cases.map(([name]) => [name, []]));
for (const [, fn] of cases) await time(fn, 500);
for (let round = 0; round < 5; round++) for (const [name, fn] of cases) results.get(name)!.push(await time(fn, N));
console.log(`Node ${process.versions.node}, ${N} verifications a round, 5 rounds`);
for (const [name, xs] of results) {
  const sorted = [...xs].sort((a, b) => a - b);
  const rounds = xs.map((x) => x.toFixed(1)).join(', ');
  console.log(
    `${name.padEnd(18)} median ${sorted[2].toFixed(1)} µs, min ${sorted[0].toFixed(1)} µs  (rounds ${rounds})`,
  );
}
