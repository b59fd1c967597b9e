/**
 * A PNG's chunks that an avatar or a logo never needs and that cost what they say, not what the pixels do: text
 * (`tEXt`, `zTXt`, `iTXt`) and the colour profile (`iCCP`, not applied anyway: `ignoreIcc`). The decoder inflates
 * compressed text in full (issue 39 item 9, tenth re-run: a 1×1 PNG with 100 `zTXt` chunks of 20 MB each cost 9.3 s
 * of CPU and 6 GB of memory, ranked as a free image).
 */
const DROPPED = new Set(['tEXt', 'zTXt', 'iTXt', 'iCCP']);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * `bytes` without their text and colour-profile chunks (one walk over the chunk headers, no inflating). Bytes that
 * are not a well-formed chunk list are answered as they are: the decoder refuses them.
 */
export function withoutPngMetadata(bytes: Buffer): Buffer {
  if (bytes.length < SIGNATURE.length || !bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return bytes;
  const kept: Buffer[] = [SIGNATURE];
  let dropped = false;
  for (let at = SIGNATURE.length; at < bytes.length;) {
    if (at + 12 > bytes.length) return bytes;
    const end = at + 12 + bytes.readUInt32BE(at);
    if (end > bytes.length) return bytes;
    if (DROPPED.has(bytes.toString('latin1', at + 4, at + 8))) dropped = true;
    else kept.push(bytes.subarray(at, end));
    at = end;
  }
  return dropped ? Buffer.concat(kept) : bytes;
}
