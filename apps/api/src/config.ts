/**
 * Typed configuration: the only place that reads `process.env`.
 * Every variable has a default that runs locally; the README lists them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Config {
  /** HTTP port (default 8080). */
  port: number;
  /** Listen address (default 127.0.0.1). */
  host: string;
  /** Public origin of this service, no trailing slash (default http://localhost:PORT). */
  publicUrl: string;
  /** Directory of the embedded database and generated secrets (default ./.data). */
  dataDir: string;
  /** When set, PostgreSQL through `pg`; otherwise PGlite under dataDir. */
  databaseUrl: string | null;
  /** When set, nodemailer over SMTP (e.g. smtp://127.0.0.1:2525); otherwise the dev outbox. */
  smtpUrl: string | null;
  mailFrom: string;
  /** QR code time step, seconds (default 30). */
  qrTtlSeconds: number;
  /** HMAC/JWT secret (JWT_SECRET; generated into dataDir when unset). */
  jwtSecret: Uint8Array;
  /**
   * Server-side pepper of sign-in code hashes (HMAC-SHA256 key): derived from the JWT secret under
   * its own label, so it never equals a key used for tokens or QR codes and is never stored.
   */
  otpPepper: Uint8Array;
  /** Access token lifetime, seconds (15 min). */
  accessTokenTtlSeconds: number;
  /** Absolute lifetime of a sign-in (refresh token family), seconds (30 days). */
  refreshTokenTtlSeconds: number;
  /** Grace window in which a just-rotated refresh token is still accepted, seconds (10). */
  refreshGraceSeconds: number;
  /** OTP validity, seconds (10 min). */
  otpTtlSeconds: number;
  /** Minimum gap between two codes for one e-mail, seconds (OTP_RESEND_SECONDS, default 60). */
  otpResendSeconds: number;
  /** Wrong codes that end a sign-in (5). */
  otpMaxAttempts: number;
  /** Per-IP limits per minute on requesting and verifying codes. */
  otpRequestsPerIpPerMinute: number;
  otpVerifiesPerIpPerMinute: number;
  /** Redeem attempts per IP per minute (REDEEM_PER_IP_PER_MINUTE, default 10). */
  redeemPerMinute: number;
  /** Username searches per signed-in account per minute (USERNAME_SEARCHES_PER_USER_PER_MINUTE, default 30). */
  userSearchesPerMinute: number;
  /**
   * The key door staff enter on the scanner page (`/scanner`); sent as header `x-scanner-key` to
   * /v1/access/*. SCANNER_KEY; when unset, generated once into DATA_DIR/scanner-key.
   */
  scannerKey: string;
  /** Door check-ins per IP per minute (CHECK_IN_PER_IP_PER_MINUTE, default 600: a venue's scanners may share one IP). */
  checkInPerMinute: number;
  /** Seed demo data on first start (default true). */
  seedDemo: boolean;
  productName: string;
  productSiteUrl: string;
  helpCenterUrl: string;
  appUrl: string;
  /** Swap checkout base URL (CHECKOUT_BASE_URL; default the sandbox checkout at PUBLIC_URL/checkout). */
  checkoutBaseUrl: string;
  /** True when CHECKOUT_BASE_URL is unset: this service serves the sandbox checkout. */
  sandboxCheckout: boolean;
  stripePublishableKey: string;
  twitterVia: string;
  /** Resale service fee paid by the buyer, basis points of the ticket price (RESALE_FEE_BPS, default 1000 = 10 %). */
  resaleFeeBps: number;
  /** Countries where resale and payouts are offered (spec 9: Australia and New Zealand). */
  resaleCountries: string[];
  /** STRIPE_SECRET_KEY: when set, payouts and buyer checkout go through Stripe; otherwise the sandbox provider. */
  stripeSecretKey: string | null;
  /** STRIPE_WEBHOOK_SECRET: signing secret of the Stripe webhook endpoint. */
  stripeWebhookSecret: string;
  /** STRIPE_API_URL: API base for the Stripe SDK (tests point it at a local fake). */
  stripeApiUrl: string | null;
  /** Built panel (Vite dist). */
  panelDistDir: string;
  /** Static files (images, demo page assets). */
  publicDir: string;
  logLevel: string;
}

const apiRoot = resolve(import.meta.dirname, '..');

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`config: ${name} must be a non-negative integer`);
  return n;
}

function secretFrom(env: NodeJS.ProcessEnv, dataDir: string): Uint8Array {
  if (env.JWT_SECRET) return new TextEncoder().encode(env.JWT_SECRET);
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

/** SCANNER_KEY, or a random key generated once into dataDir/scanner-key (like the JWT secret). */
function scannerKeyFrom(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.SCANNER_KEY) return env.SCANNER_KEY;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'scanner-key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(18).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** Builds the config from an environment (process.env by default); `overrides` win (tests). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = int('PORT', env.PORT, 8080);
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './.data');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const jwtSecret = overrides.jwtSecret ?? secretFrom(env, dataDir);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Ticket Panel <no-reply@ticketpanel.local>',
    qrTtlSeconds: Math.max(1, int('QR_TTL_SECONDS', env.QR_TTL_SECONDS, 30)),
    jwtSecret,
    otpPepper: createHmac('sha256', jwtSecret).update('tp:otp-pepper:v1').digest(),
    accessTokenTtlSeconds: 15 * 60,
    refreshTokenTtlSeconds: 30 * 24 * 3600,
    refreshGraceSeconds: 10,
    otpTtlSeconds: 10 * 60,
    otpResendSeconds: int('OTP_RESEND_SECONDS', env.OTP_RESEND_SECONDS, 60),
    otpMaxAttempts: 5,
    otpRequestsPerIpPerMinute: int('OTP_REQUESTS_PER_IP_PER_MINUTE', env.OTP_REQUESTS_PER_IP_PER_MINUTE, 20),
    otpVerifiesPerIpPerMinute: int('OTP_VERIFIES_PER_IP_PER_MINUTE', env.OTP_VERIFIES_PER_IP_PER_MINUTE, 30),
    redeemPerMinute: int('REDEEM_PER_IP_PER_MINUTE', env.REDEEM_PER_IP_PER_MINUTE, 10),
    userSearchesPerMinute: int('USERNAME_SEARCHES_PER_USER_PER_MINUTE', env.USERNAME_SEARCHES_PER_USER_PER_MINUTE, 30),
    scannerKey: overrides.scannerKey ?? scannerKeyFrom(env, dataDir),
    checkInPerMinute: int('CHECK_IN_PER_IP_PER_MINUTE', env.CHECK_IN_PER_IP_PER_MINUTE, 600),
    seedDemo: env.SEED_DEMO !== 'false',
    productName: env.PRODUCT_NAME ?? 'Ticket Panel',
    productSiteUrl: (env.PRODUCT_SITE_URL ?? publicUrl).replace(/\/+$/, ''),
    helpCenterUrl: env.HELP_CENTER_URL ?? `${publicUrl}/help`,
    appUrl: env.APP_URL ?? `${publicUrl}/app`,
    checkoutBaseUrl: (env.CHECKOUT_BASE_URL ?? `${publicUrl}/checkout`).replace(/\/+$/, ''),
    sandboxCheckout: !env.CHECKOUT_BASE_URL,
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY ?? '',
    twitterVia: env.TWITTER_VIA ?? 'ticketpanel',
    resaleFeeBps: int('RESALE_FEE_BPS', env.RESALE_FEE_BPS, 1000),
    resaleCountries: ['AU', 'NZ'],
    stripeSecretKey: env.STRIPE_SECRET_KEY || null,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '',
    stripeApiUrl: env.STRIPE_API_URL || null,
    panelDistDir: resolve(env.PANEL_DIST_DIR ?? join(apiRoot, '../panel/dist')),
    publicDir: join(apiRoot, 'public'),
    logLevel: env.LOG_LEVEL ?? 'info',
    ...overrides,
  };
}
