/**
 * Resale helpers shared by the use-case services: the single-use secret code (spec section 4,
 * Redeem) and the name a ticket type is shown under.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../lib/secrets.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** SHA-256 (hex) of a code as typed: case, spaces and dashes ignored. Only this hash is stored. */
export const hashCode = (code: string): string => sha256Hex(code.trim().toUpperCase().replace(/[\s-]/g, ''));

/** A 16-character Crockford base32 code (80 random bits), shown in groups of four. */
export function newCode(): string {
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = CROCKFORD[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out.match(/.{4}/g)!.join('-');
}

/** How resale names a ticket type to its holder: "Event · Type" (as redeem does). */
export const ticketTypeTitle = (event: { name: string }, type: { name: string }): string =>
  `${event.name} · ${type.name}`;
