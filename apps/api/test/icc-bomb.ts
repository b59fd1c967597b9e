/**
 * An ICC profile that costs colour management about 1 ms of CPU per element whatever the image's size (issue 39
 * item 9, ninth re-run): a v4 RGB display profile whose D2B0..D2B3 tags (float, preferred by lcms) are a chain of `n`
 * 2×2×2 colour tables, which lcms runs through on a 33³ grid when it prepares a transform to sRGB; a matrix-shaper
 * too, so the intent is supported. And a JPEG carrying it in APP2 `ICC_PROFILE` segments.
 */
const be32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v >>> 0);
  return b;
};
const f32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeFloatBE(v);
  return b;
};
const s15 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(Math.round(v * 65536));
  return b;
};
const sig = (s: string) => Buffer.from(s, 'ascii');

/** The profile with `n` colour-table elements in each of its four D2B tags (one shared copy). */
export function iccBomb(n: number): Buffer {
  const clutParts = [
    sig('clut'),
    be32(0),
    Buffer.from([0, 3, 0, 3]),
    Buffer.from([2, 2, 2, ...Array<number>(13).fill(0)]),
  ];
  for (let i = 0; i < 2; i++)
    for (let j = 0; j < 2; j++) for (let k = 0; k < 2; k++) clutParts.push(f32(i * 0.9642), f32(j), f32(k * 0.8249));
  const clut = Buffer.concat(clutParts);
  const head = Buffer.concat([sig('mpet'), be32(0), Buffer.from([0, 3, 0, 3]), be32(n)]);
  const pos = Buffer.alloc(8 * n);
  for (let e = 0; e < n; e++) {
    pos.writeUInt32BE(head.length + pos.length + e * clut.length, 8 * e);
    pos.writeUInt32BE(clut.length, 8 * e + 4);
  }
  const mpet = Buffer.concat([head, pos, ...Array<Buffer>(n).fill(clut)]);
  const xyz = (x: number, y: number, z: number) => Buffer.concat([sig('XYZ '), be32(0), s15(x), s15(y), s15(z)]);
  const para = Buffer.concat([sig('para'), be32(0), Buffer.from([0, 0, 0, 0]), s15(1.0)]);
  const tags: [string, Buffer][] = [
    ['wtpt', xyz(0.9642, 1.0, 0.8249)],
    ['rXYZ', xyz(0.4361, 0.2225, 0.0139)],
    ['gXYZ', xyz(0.3851, 0.7169, 0.0971)],
    ['bXYZ', xyz(0.1431, 0.0606, 0.7141)],
    ['rTRC', para],
    ['gTRC', para],
    ['bTRC', para],
    ['D2B0', mpet],
    ['D2B1', mpet],
    ['D2B2', mpet],
    ['D2B3', mpet],
  ];
  let off = 128 + 4 + 12 * tags.length;
  const table = [be32(tags.length)];
  const data: Buffer[] = [];
  const seen = new Map<Buffer, number>();
  for (const [s, d] of tags) {
    let o = seen.get(d);
    if (o === undefined) {
      while (off % 4) {
        data.push(Buffer.alloc(1));
        off++;
      }
      o = off;
      seen.set(d, o);
      data.push(d);
      off += d.length;
    }
    table.push(sig(s), be32(o), be32(d.length));
  }
  const hdr = Buffer.alloc(128);
  hdr.writeUInt32BE(off, 0);
  hdr.write('lcms', 4);
  hdr.writeUInt32BE(0x04400000, 8);
  hdr.write('mntr', 12);
  hdr.write('RGB ', 16);
  hdr.write('XYZ ', 20);
  hdr.write('acsp', 36);
  s15(0.9642).copy(hdr, 68);
  s15(1.0).copy(hdr, 72);
  s15(0.8249).copy(hdr, 76);
  return Buffer.concat([hdr, ...table, ...data]);
}

/** `jpeg` with `icc` in APP2 `ICC_PROFILE` segments right after its SOI. */
export function jpegWithIcc(jpeg: Buffer, icc: Buffer): Buffer {
  const per = 65519;
  const count = Math.ceil(icc.length / per);
  const chunks: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const part = icc.subarray(i * per, (i + 1) * per);
    const seg = Buffer.alloc(18 + part.length);
    seg[0] = 0xff;
    seg[1] = 0xe2;
    seg.writeUInt16BE(16 + part.length, 2);
    seg.write('ICC_PROFILE\0', 4, 'latin1');
    seg[16] = i + 1;
    seg[17] = count;
    part.copy(seg, 18);
    chunks.push(seg);
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...chunks, jpeg.subarray(2)]);
}
