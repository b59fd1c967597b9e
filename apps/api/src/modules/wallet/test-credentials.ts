/**
 * Wallet test mode's own credentials (issue 22, decision 029): a throw-away CA standing in for Apple's WWDR,
 * a Pass Type ID signer certificate it issues, and an RSA key standing in for a Google service account. Made
 * once into `WalletConfig.dir` (DATA_DIR/wallet-test) and kept, so passes issued before a restart still verify.
 * Keys come from `node:crypto`; node-forge writes the X.509 certificates. Never used with WALLET_TEST_MODE off
 * (config refuses test mode in production).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import forge from 'node-forge';
import type { WalletConfig } from '../../config.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;

function rsaPair() {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

function certificate(opts: {
  subject: forge.pki.CertificateField[];
  issuer: forge.pki.CertificateField[];
  publicKeyPem: string;
  signerKeyPem: string;
  ca: boolean;
}): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(opts.publicKeyPem);
  cert.serialNumber = '01' + randomBytes(8).toString('hex');
  cert.validity.notBefore = new Date(Date.now() - 24 * 3600 * 1000);
  cert.validity.notAfter = new Date(Date.now() + 10 * YEAR_MS);
  cert.setSubject(opts.subject);
  cert.setIssuer(opts.issuer);
  cert.setExtensions(
    opts.ca
      ? [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, critical: true },
        ],
  );
  cert.sign(forge.pki.privateKeyFromPem(opts.signerKeyPem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/**
 * Makes the test CA (`test-ca.pem`), the Pass Type ID signer (`pass-signer.pem`, `pass-signer-key.pem`) and the
 * Google service account key (`google-service-account.json`) in the config's paths when they are missing.
 * Idempotent; a no-op outside test mode.
 */
export function ensureWalletTestCredentials(wallet: WalletConfig): void {
  if (!wallet.testMode || !wallet.apple || !wallet.google) return;
  mkdirSync(wallet.dir, { recursive: true, mode: 0o700 });
  const { apple, google } = wallet;
  if (!existsSync(apple.certPath) || !existsSync(apple.keyPath) || !existsSync(apple.wwdrPath)) {
    const caKeys = rsaPair();
    const caName = [
      { name: 'commonName', value: 'Ticket Panel Wallet Test CA' },
      { name: 'organizationName', value: 'Ticket Panel (test mode)' },
    ];
    const caPem = certificate({
      subject: caName,
      issuer: caName,
      publicKeyPem: caKeys.publicKey,
      signerKeyPem: caKeys.privateKey,
      ca: true,
    });
    const signerKeys = rsaPair();
    const signerPem = certificate({
      subject: [
        { name: 'commonName', value: `Pass Type ID: ${apple.passTypeId}` },
        { name: 'organizationalUnitName', value: apple.teamId },
        { name: 'organizationName', value: 'Ticket Panel (test mode)' },
      ],
      issuer: caName,
      publicKeyPem: signerKeys.publicKey,
      signerKeyPem: caKeys.privateKey,
      ca: false,
    });
    writeFileSync(apple.keyPath, signerKeys.privateKey, { mode: 0o600 });
    writeFileSync(apple.certPath, signerPem);
    writeFileSync(apple.wwdrPath, caPem);
  }
  if (!existsSync(google.serviceAccountKeyPath)) {
    const keys = rsaPair();
    const account = {
      type: 'service_account',
      client_email: 'wallet-test@ticketpanel.test',
      private_key_id: randomBytes(8).toString('hex'),
      private_key: keys.privateKey,
      public_key: keys.publicKey,
    };
    writeFileSync(google.serviceAccountKeyPath, JSON.stringify(account, null, 2), { mode: 0o600 });
  }
}
