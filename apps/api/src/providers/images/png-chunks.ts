/**
 * A PNG's chunks that an avatar or a logo never needs and that cost what they say, not what the pixels do: text
 * (`tEXt`, `zTXt`, `iTXt`) and the colour profile (`iCCP`, not applied anyway: `ignoreIcc`). The decoder inflates
 * compressed text in full (issue 39 item 9, tenth re-run: a 1×1 PNG with 100 `zTXt` chunks of 20 MB each cost 9.3 s
 * of CPU and 6 GB of memory, ranked as a free image).
 */
const DROPPED = new Set(['tEXt', 'zTXt', 'iTXt', 'iCCP']);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * `bytes` without their text and colour-profile chunks, and without anything after the image's end (`IEND`): one
 * walk over the chunk headers, no inflating. Decoders ignore bytes after `IEND`, so a walk that stopped at the file's
 * end had to give up on them, and one trailing byte kept every text chunk (the eleventh re-run: 1.3 GB and 11.9 s per
 * upload). Bytes that are not a PNG signature are answered as they are.
 * @returns the kept chunks up to and with `IEND`, or null when the chunk list is broken before it (a length past
 *   the end, no `IEND`): not a PNG any decoder should read.
 */
export function withoutPngMetadata(bytes: Buffer): Buffer | null {
  if (bytes.length < SIGNATURE.length || !bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return bytes;
  const kept: Buffer[] = [SIGNATURE];
  for (let at = SIGNATURE.length; at + 12 <= bytes.length;) {
    const end = at + 12 + bytes.readUInt32BE(at);
    if (end > bytes.length) return null;
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (!DROPPED.has(type)) kept.push(bytes.subarray(at, end));
    if (type === 'IEND') return Buffer.concat(kept);
    at = end;
  }
  return null;
}
