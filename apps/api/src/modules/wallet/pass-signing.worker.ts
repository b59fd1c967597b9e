/**
 * Apple pass building and signing on a worker thread (issue 39, break 5; decision 029): everything CPU-heavy of a
 * `.pkpass` runs here, never on the server's event loop: passkit-generator's checks of pass.json (joi), the
 * manifest's SHA-1s, the detached PKCS #7 signature (node-forge: RSA in JavaScript, ~30 ms a pass) and the zip.
 * The thread gets the certificates once (`workerData`), then one {@link PassSpec} of plain data per message, and
 * answers the file's bytes. Its work is JavaScript only, so `Worker.terminate()` stops a pass at its deadline at
 * once (pass-signer.ts); no native library runs here (the icons are made by sharp on the main thread, cached).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { constants, createPrivateKey, privateEncrypt, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { PKPass } from 'passkit-generator';

/** The Pass Type ID certificate, its key and Apple's WWDR intermediate, PEM text (read once by the pool). */
export interface PassSigningCertificates {
  wwdr: string;
  signerCert: string;
  signerKey: string;
  signerKeyPassphrase?: string;
}

/** One pass.json field (`primaryFields`, `secondaryFields`, ...), as Apple's reference names its keys. */
export interface PassField {
  key: string;
  label: string;
  value: string;
  dateStyle?: 'PKDateStyleMedium';
  timeStyle?: 'PKDateStyleShort';
}

/** Everything one `.pkpass` holds, as plain data that crosses to the thread by structured clone. */
export interface PassSpec {
  /** File name → PNG bytes (`icon.png`, `icon@2x.png`, `logo.png`). */
  images: Record<string, Uint8Array>;
  /** pass.json's top-level keys (identifiers, colours, texts, semantics; `voided: true` for a voided pass). */
  props: Record<string, unknown>;
  primaryFields: PassField[];
  secondaryFields: PassField[];
  auxiliaryFields: PassField[];
  backFields: PassField[];
  /** The QR's message (ISO-8859-1), or null for a voided pass (no barcode). */
  barcode: string | null;
  /** pass.json `relevantDate` and `expirationDate` (UTC). */
  relevantDate: Date;
  expirationDate: Date;
  /** The venue, when the event has coordinates (degrees). */
  location: { latitude: number; longitude: number; relevantText: string } | null;
  /**
   * `<lang>.lproj/pass.strings` of the pass (issue 40): language (`en`, `es`) → the labels of pass.json (keys, as
   * pass.json writes them) → their text in that language. Wallet shows the one of the device's language.
   */
  localizations: Record<string, Record<string, string>>;
}

/** A message to the thread: sign `spec` as job `id`. */
export interface PassSigningRequest {
  id: number;
  spec: PassSpec;
}
/** The thread's answer to job `id`: the `.pkpass` bytes, or why it could not be made. */
export type PassSigningReply =
  { id: number; ok: true; pkpass: Uint8Array } | { id: number; ok: false; message: string };

/**
 * The RSA operation of the PKCS #7 signature by `node:crypto` (OpenSSL) instead of node-forge's JavaScript: the same
 * PKCS #1 v1.5 signature of the same DigestInfo, about 2 ms where forge takes 20–95 ms (three quarters of a pass).
 * passkit-generator signs with the forge key it gets from `forge.pki.decryptRsaPrivateKey`; in this thread (and
 * only here: a worker has its own modules) that function answers the same key whose `sign` calls OpenSSL. Every
 * signature is checked by `openssl cms -verify` in wallet.test.ts.
 */
export function signWithOpenSsl(signerKey: KeyObject): void {
  const decrypt = forge.pki.decryptRsaPrivateKey.bind(forge.pki);
  forge.pki.decryptRsaPrivateKey = (pem: string, passphrase?: string) => {
    const key = decrypt(pem, passphrase);
    if (!key) return key;
    key.sign = (md: forge.md.MessageDigest) => {
      // DigestInfo ::= SEQUENCE { AlgorithmIdentifier { oid, NULL }, OCTET STRING digest } (RFC 8017, 9.2)
      const { asn1 } = forge;
      const digestInfo = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
          asn1.create(
            asn1.Class.UNIVERSAL,
            asn1.Type.OID,
            false,
            asn1.oidToDer(forge.pki.oids[md.algorithm]).getBytes(),
          ),
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
        ]),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, md.digest().getBytes()),
      ]);
      const der = Buffer.from(asn1.toDer(digestInfo).getBytes(), 'binary');
      return privateEncrypt({ key: signerKey, padding: constants.RSA_PKCS1_PADDING }, der).toString('binary');
    };
    return key;
  };
}

/** Builds, signs and zips one pass (the work the main thread used to do, unchanged). */
export function buildPass(spec: PassSpec, certificates: PassSigningCertificates): Buffer {
  const images = Object.fromEntries(Object.entries(spec.images).map(([name, png]) => [name, Buffer.from(png)]));
  const file = new PKPass(images, certificates, spec.props);
  file.type = 'eventTicket';
  file.primaryFields.push(...spec.primaryFields);
  file.secondaryFields.push(...spec.secondaryFields);
  file.auxiliaryFields.push(...spec.auxiliaryFields);
  file.backFields.push(...spec.backFields);
  if (spec.barcode)
    file.setBarcodes({ message: spec.barcode, format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1' });
  file.setRelevantDate(spec.relevantDate);
  file.setExpirationDate(spec.expirationDate);
  if (spec.location) file.setLocations(spec.location);
  for (const [lang, strings] of Object.entries(spec.localizations)) file.localize(lang, strings);
  return file.getAsBuffer();
}

if (parentPort) {
  try {
    // This thread only: on Linux a nice value is per thread. The event loop gets the CPU first, as the avatar
    // processes let it (providers/images/image-decode.worker.ts); passes are signed with what is left.
    setPriority(10);
  } catch {
    // A courtesy to the event loop; not every platform allows it.
  }
  const port = parentPort;
  const certificates = workerData as PassSigningCertificates;
  signWithOpenSsl(
    createPrivateKey({ key: certificates.signerKey, format: 'pem', passphrase: certificates.signerKeyPassphrase }),
  );
  port.on('message', ({ id, spec }: PassSigningRequest) => {
    let reply: PassSigningReply;
    try {
      // A copy of its own: a Buffer may be a view of a shared pool, which must not be transferred.
      const pkpass = new Uint8Array(buildPass(spec, certificates));
      reply = { id, ok: true, pkpass };
      port.postMessage(reply, [pkpass.buffer]);
    } catch (err) {
      reply = { id, ok: false, message: err instanceof Error ? err.message : String(err) };
      port.postMessage(reply);
    }
  });
}
