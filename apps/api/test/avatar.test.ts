/** Avatar upload and profile collisions (issue: swap, settings, hub and logout). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { crc32 } from 'node:zlib';
import { bearer, createTestApp, type TestApp } from './helper.js';
import type { User } from '@tp/contract';

let t: TestApp;
let alice: string;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  alice = (await t.signIn('alice@example.com')).accessToken;
});
afterAll(async () => {
  await t.close();
});

/** A multipart/form-data body with one `file` part. */
function multipart(bytes: Buffer, filename: string, type: string) {
  const boundary = '----tp' + Math.random().toString(16).slice(2);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
const upload = (bytes: Buffer, filename: string, type = 'application/octet-stream') => {
  const body = multipart(bytes, filename, type);
  return t.app.inject({
    method: 'POST',
    url: '/v1/auth/avatar',
    headers: { ...bearer(alice), ...body.headers },
    payload: body.payload,
  });
};
const base = () => sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 30, g: 120, b: 200 } } });

async function expectWebpAvatar(res: Awaited<ReturnType<typeof upload>>) {
  expect(res.statusCode, res.body).toBe(200);
  const picture = res.json<User>().picture ?? '';
  expect(picture).toMatch(/^\/media\/avatars\/[0-9a-f-]{36}\.webp$/);
  const served = await t.app.inject({ url: picture });
  expect(served.statusCode).toBe(200);
  expect(served.headers['x-content-type-options']).toBe('nosniff');
  const meta = await sharp(served.rawPayload).metadata();
  expect(meta.format).toBe('webp');
  expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(512);
  expect(meta.exif).toBeUndefined();
  return served.rawPayload;
}

describe('avatar upload', () => {
  it('accepts PNG, JPG (metadata stripped), WEBP, HEIC and SVG and re-encodes each to WebP', async () => {
    await expectWebpAvatar(await upload(await base().png().toBuffer(), 'a.png', 'image/png'));
    const jpg = await base()
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-gps-owner' } } })
      .toBuffer();
    const out = await expectWebpAvatar(await upload(jpg, 'a.jpg', 'image/jpeg'));
    expect(out.includes(Buffer.from('secret-gps-owner'))).toBe(false);
    await expectWebpAvatar(await upload(await base().webp().toBuffer(), 'a.webp', 'image/webp'));
    await expectWebpAvatar(
      await upload(readFileSync(join(import.meta.dirname, 'fixtures/avatar.heic')), 'a.heic', 'image/heic'),
    );
    await expectWebpAvatar(
      await upload(
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect width="300" height="300" fill="teal"/></svg>',
        ),
        'a.svg',
        'image/svg+xml',
      ),
    );
  });

  it('refuses an SVG with a script, an onload handler or an external image', async () => {
    const evil = [
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" onload="alert(1)"><script>alert(document.cookie)</script><rect width="64" height="64" fill="red"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64"><use xlink:href="https://evil.test/x.svg#a"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="url(file:///etc/passwd)"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><foreignObject width="64" height="64"><p>hi</p></foreignObject></svg>',
    ];
    for (const svg of evil) {
      const res = await upload(Buffer.from(svg), 'evil.svg', 'image/svg+xml');
      expect(res.statusCode, svg).toBe(422);
      expect(res.json()).toEqual({ message: 'api.profile.avatar_svg_unsupported' });
    }
  });

  it('refuses an HTML file named .png, a 30 MB file and a pixel flood, keeping the old picture', async () => {
    const before = (await t.app.inject({ url: '/v1/auth/me', headers: bearer(alice) })).json<User>().picture;
    const html = await upload(Buffer.from('<html><script>alert(1)</script></html>'), 'cat.png', 'image/png');
    expect(html.statusCode).toBe(400);
    expect(html.json()).toEqual({ message: 'api.profile.avatar_invalid' });
    const big = await upload(Buffer.alloc(30 * 1024 * 1024, 1), 'big.png', 'image/png');
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ message: 'api.profile.avatar_too_large' });
    // A tiny PNG whose header claims 60000 x 60000 pixels (3.6 gigapixels).
    const flood = Buffer.from(
      await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
        .png()
        .toBuffer(),
    );
    flood.writeUInt32BE(60000, 16);
    flood.writeUInt32BE(60000, 20);
    flood.writeUInt32BE(crc32(flood.subarray(12, 29)), 29);
    const res = await upload(flood, 'flood.png', 'image/png');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'api.profile.avatar_too_many_pixels' });
    expect((await t.app.inject({ url: '/v1/auth/me', headers: bearer(alice) })).json<User>().picture).toBe(before);
  });
});

describe('profile collisions', () => {
  it('takes AVATAR_UPLOADS_PER_HOLDER_PER_MINUTE uploads a minute from a holder, from any address: the next is 429 api.too_many_requests (issue 39 item 9, twelfth re-run)', async () => {
    const limited = await createTestApp({ seed: true, config: { avatarUploadsPerHolderPerMinute: 3 } });
    try {
      const token = (await limited.signIn('bob@example.com')).accessToken;
      const other = (await limited.signIn('carol@example.com')).accessToken;
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } })
        .png()
        .toBuffer();
      const send = (as: string, i: number) => {
        const body = multipart(png, 'me.png', 'image/png');
        return limited.app.inject({
          method: 'POST',
          url: '/v1/auth/avatar',
          headers: { ...bearer(as), ...body.headers },
          payload: body.payload,
          remoteAddress: `198.51.100.${i}`,
        });
      };
      for (const i of [1, 2, 3]) expect((await send(token, i)).statusCode).toBe(200);
      const fourth = await send(token, 4);
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).toEqual({ message: 'api.too_many_requests' });
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
      // Another holder is not counted with bob.
      expect((await send(other, 5)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('refuses a phone number someone else has', async () => {
    const bob = (await t.signIn('bob@example.com')).accessToken;
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/auth/profile',
          headers: bearer(bob),
          payload: { phoneNumber: '+61 400 000 001' },
        })
      ).statusCode,
    ).toBe(200);
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/profile',
      headers: bearer(alice),
      payload: { phoneNumber: '+61 400 000 001' },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ message: 'api.profile.email_or_phone_in_use' });
  });

  it('stores phone numbers normalised, so spacing and punctuation do not dodge a collision', async () => {
    const bob = (await t.signIn('bob@example.com')).accessToken;
    const saved = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/profile',
      headers: bearer(bob),
      payload: { phoneNumber: ' +61 (400) 000-002 ' },
    });
    expect(saved.json<User>().phoneNumber).toBe('+61400000002');
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/profile',
      headers: bearer(alice),
      payload: { phoneNumber: '+61400000002' },
    });
    expect(r.json()).toEqual({ message: 'api.profile.email_or_phone_in_use' });
    // The owner may save the same number again in another spelling.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/auth/profile',
          headers: bearer(bob),
          payload: { phoneNumber: '+61 400 000 002' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('refuses a nickname whose nickname#suffix is taken, case-insensitively', async () => {
    const carol = await t.signIn('carol@example.com');
    // New accounts are all called `guest` (issue 13): carol picks her nickname first.
    await t.app.inject({
      method: 'POST',
      url: '/v1/auth/username',
      headers: bearer(carol.accessToken),
      payload: { username: 'carol' },
    });
    const me = (await t.app.inject({ url: '/v1/auth/me', headers: bearer(carol.accessToken) })).json<User>();
    const dave = await t.signIn('dave@example.com');
    // Give dave carol's suffix through the database, then try to take carol's nickname.
    await t.database.db.execute(
      `update users set username_suffix = ${me.uniqueID.slice(1)} where email = 'dave@example.com'` as never,
    );
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/username',
      headers: bearer(dave.accessToken),
      payload: { username: 'CAROL' },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ message: 'api.profile.username_taken' });
    const empty = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/username',
      headers: bearer(dave.accessToken),
      payload: { username: '  ' },
    });
    expect(empty.statusCode).toBe(400);
  });
});
