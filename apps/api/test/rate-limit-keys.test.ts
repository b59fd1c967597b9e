/**
 * What rate limits key on (issue 11): the real client behind a trusted proxy (TRUST_PROXY), never the proxy
 * for everyone and never a header the client shapes; per-account limits on the verified user id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { addressKey } from '../src/lib/rate-limit.js';
import { bearer, createTestApp, type TestApp } from './helper.js';

let t: TestApp;
let open: TestApp | undefined;
afterEach(async () => {
  // Each app is closed once, even when a later test builds none.
  if (t !== open) await t?.close();
  open = t;
});

const requestCode = (email: string, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/v1/auth/signInOrRegisterAndSignIn',
    payload: { email },
    headers,
    remoteAddress,
  });

describe('TRUST_PROXY', () => {
  it('reads off (default), a hop count or a list of proxy addresses', () => {
    const trust = (TRUST_PROXY?: string) =>
      loadConfig({ TRUST_PROXY, JWT_SECRET: 'x', SCANNER_KEY: 'k'.repeat(16) }).trustProxy;
    expect(trust()).toBe(false);
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('1')).toBe(1);
    expect(trust('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('behind one trusted proxy, limits each client (X-Forwarded-For) on its own', async () => {
    t = await createTestApp({ config: { trustProxy: 1, otpRequestsPerIpPerMinute: 3 } });
    const client = (ip: string, i: number) => requestCode(`c${i}.${ip}@example.com`, { 'x-forwarded-for': ip });
    const first = [];
    for (let i = 0; i < 4; i++) first.push((await client('203.0.113.1', i)).statusCode);
    expect(first).toEqual([200, 200, 200, 429]);
    // Another client behind the same proxy still gets in.
    expect((await client('203.0.113.2', 0)).statusCode).toBe(200);
    // A spoofed left-most entry does not make a new bucket: the proxy appends the real address.
    expect((await client('198.51.100.9, 203.0.113.1', 9)).statusCode).toBe(429);
  });

  it('off by default: X-Forwarded-For is ignored, the socket address is the key', async () => {
    t = await createTestApp({ config: { otpRequestsPerIpPerMinute: 2 } });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await requestCode(`d${i}@example.com`, { 'x-forwarded-for': `203.0.113.${i}` })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('per-account limits', () => {
  it('username search counts per signed-in account: a padded Bearer header or a new token is the same bucket', async () => {
    t = await createTestApp({ seed: true, config: { userSearchesPerMinute: 60 } });
    const { accessToken, refreshToken } = await t.signIn('alice@example.com');
    const search = (authorization: string, remoteAddress = '127.0.0.1') =>
      t.app.inject({ url: '/v1/mobile/users/?username=bob', headers: { authorization }, remoteAddress });
    for (let i = 0; i < 60; i++) expect((await search(`Bearer ${accessToken}`)).statusCode).toBe(200);
    expect((await search(`Bearer ${accessToken}`)).statusCode).toBe(429);
    expect((await search(`Bearer    ${accessToken}   `)).statusCode).toBe(429);
    expect((await search(`Bearer ${accessToken}`, '192.0.2.44')).statusCode).toBe(429);
    const fresh = await t.app.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refreshToken } });
    expect((await search(`Bearer ${fresh.json<{ accessToken: string }>().accessToken}`)).statusCode).toBe(429);
    // Another account is not affected.
    const bob = await t.signIn('bob@example.com');
    expect(
      (await t.app.inject({ url: '/v1/mobile/users/?username=al', headers: bearer(bob.accessToken) })).statusCode,
    ).toBe(200);
  });
});

describe('IPv6 clients (issue 19, break 7)', () => {
  it('30 addresses of one /64 share one bucket; another /64 has its own', async () => {
    t = await createTestApp({ config: { otpRequestsPerIpPerMinute: 3 } });
    const statuses = [];
    for (let i = 1; i <= 30; i++)
      statuses.push((await requestCode(`v6-${i}@example.com`, {}, `2001:db8:1:2::${i.toString(16)}:${i}`)).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.slice(3).every((s) => s === 429)).toBe(true);
    expect((await requestCode('other@example.com', {}, '2001:db8:1:3::1')).statusCode).toBe(200);
  });

  it('keys by RATE_LIMIT_IPV6_PREFIX bits (default 64), IPv4 and IPv4-mapped addresses as the IPv4 address', () => {
    const prefix = (RATE_LIMIT_IPV6_PREFIX?: string) =>
      loadConfig({ RATE_LIMIT_IPV6_PREFIX, JWT_SECRET: 'x', SCANNER_KEY: 'k'.repeat(16) }).rateLimitIpv6Prefix;
    expect(prefix()).toBe(64);
    expect(prefix('48')).toBe(48);
    expect(() => prefix('x')).toThrow(/RATE_LIMIT_IPV6_PREFIX/);
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:aaaa::1', 48)).toBe('2001:db8:1::/48');
    expect(addressKey('2001:db8::1', 128)).toBe('2001:db8::1/128');
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('not an ip')).toMatch(/^h:/);
  });
});
