/**
 * A software WebAuthn authenticator for the API tests (issue 47, decision 049): a P-256 key pair per passkey, the
 * `none` attestation a platform authenticator gives, and assertions signed as the W3C WebAuthn Level 3 spec says
 * (authenticator data ‖ SHA-256(client data JSON), ECDSA P-256, DER). What a browser would send, so the server's
 * checks run on real signatures; each part (origin, rpID, counter, challenge, signature) can be made wrong.
 */
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** Options as the server's `…/options` routes answer them (the parts the authenticator reads). */
interface Options {
  challenge: string;
  rp?: { id?: string };
  rpId?: string;
}

/** A passkey kept by the test authenticator. */
export interface TestPasskey {
  id: string;
  privateKey: KeyObject;
  /** The COSE public key (ES256). */
  cosePublicKey: Uint8Array;
  /** The signature counter; 0 keeps none (as synced passkeys do). */
  counter: number;
}

/** Changes to what the authenticator makes: another origin or rpID, a counter, a flipped signature byte. */
export interface Tamper {
  origin?: string;
  rpId?: string;
  type?: string;
  /** The counter to report (the passkey's is not changed). */
  counter?: number;
  badSignature?: boolean;
  challenge?: string;
  /** Made in a frame of another origin: the top page's origin. */
  topOrigin?: string;
}

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
}

function authenticatorData(rpId: string, counter: number, attested?: { id: Buffer; cose: Uint8Array }): Buffer {
  const flags = 0x01 | 0x04 | (attested ? 0x40 : 0); // user present, user verified, attested credential data
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  const parts: Uint8Array[] = [sha256(rpId), Buffer.from([flags]), count];
  if (attested) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(attested.id.length);
    parts.push(Buffer.alloc(16), length, attested.id, Buffer.from(attested.cose));
  }
  return Buffer.concat(parts);
}

const clientData = (type: string, challenge: string, origin: string, topOrigin?: string) =>
  Buffer.from(
    JSON.stringify(
      topOrigin
        ? { type, challenge, origin, crossOrigin: true, topOrigin }
        : { type, challenge, origin, crossOrigin: false },
    ),
  );

/** The test authenticator of one device, for the relying party at `origin` (the server's PUBLIC_URL). */
export function testAuthenticator(origin: string) {
  const host = new URL(origin).hostname;
  return {
    /**
     * A new passkey and the RegistrationResponseJSON `startRegistration` would give for `options`; with `again`, that
     * passkey registered a second time (an authenticator that ignored `excludeCredentials`).
     */
    register(options: Options, tamper: Tamper = {}, again?: TestPasskey): { passkey: TestPasskey; response: unknown } {
      const pair = again
        ? { privateKey: again.privateKey, publicKey: createPublicKey(again.privateKey) }
        : generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const id = again ? Buffer.from(again.id, 'base64url') : randomBytes(16);
      const cose = coseKey(pair.publicKey);
      const passkey: TestPasskey = { id: b64url(id), privateKey: pair.privateKey, cosePublicKey: cose, counter: 0 };
      const authData = authenticatorData(tamper.rpId ?? options.rp?.id ?? host, 0, { id, cose });
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]) as never,
      );
      const response = {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64url(
            clientData(
              tamper.type ?? 'webauthn.create',
              tamper.challenge ?? options.challenge,
              tamper.origin ?? origin,
            ),
          ),
          attestationObject: b64url(attestationObject),
          transports: ['internal', 'hybrid'],
        },
      };
      return { passkey, response };
    },

    /** The AuthenticationResponseJSON `startAuthentication` would give with `passkey` for `options`. */
    assert(passkey: TestPasskey, options: Options, tamper: Tamper = {}): unknown {
      const counter = tamper.counter ?? passkey.counter;
      const authData = authenticatorData(tamper.rpId ?? options.rpId ?? host, counter);
      const data = clientData(
        tamper.type ?? 'webauthn.get',
        tamper.challenge ?? options.challenge,
        tamper.origin ?? origin,
        tamper.topOrigin,
      );
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), passkey.privateKey);
      if (tamper.badSignature) signature[signature.length - 1] ^= 0xff;
      return {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
      };
    },
  };
}
