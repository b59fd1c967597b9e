/**
 * Typed configuration: the only place that reads `process.env`.
 * Every variable has a default that runs locally; the README lists them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { getDomain } from 'tldts';
import { organisations as orgContract } from '@tp/contract';

export interface Config {
  /** NODE_ENV: `production` turns on the production guards (see `productionProblems`); default `development`. */
  nodeEnv: string;
  /**
   * ALLOW_SANDBOX=true lets NODE_ENV=production start without SMTP_URL, STRIPE_SECRET_KEY or
   * CHECKOUT_BASE_URL (sandbox payments and the console outbox), with a warning. Default false.
   */
  allowSandbox: boolean;
  /** True when mail goes to the dev outbox served at /dev/mail: no SMTP_URL and not production. */
  devOutbox: boolean;
  /** Warnings to log at start-up (e.g. sandboxes allowed in production). */
  warnings: string[];
  /**
   * CSP `frame-ancestors` sources of the panel document (/en/, /es/): 'self' plus EMBED_ORIGINS
   * (comma-separated origins, `https://*.example.com` allowed); default 'self' and PUBLIC_URL's site
   * (`https://example.com https://*.example.com` for PUBLIC_URL https://tickets.example.com; any port of
   * localhost and 127.0.0.1 for a loopback PUBLIC_URL).
   */
  embedOrigins: string[];
  /** Origins forms may post to or redirect to besides 'self': Stripe Checkout, CHECKOUT_BASE_URL. */
  formActionOrigins: string[];
  /** HTTP port (default 8080). */
  port: number;
  /** Listen address (default 127.0.0.1). */
  host: string;
  /**
   * METRICS_PORT: when set, the Prometheus metrics (decision 031) are served at `/metrics` on a listener of their
   * own on `metricsHost`:METRICS_PORT; unset (default): no such listener. `0` takes a free port (tests).
   */
  metricsPort: number | null;
  /** METRICS_HOST: address of the metrics listener (default 127.0.0.1: only this machine can scrape). */
  metricsHost: string;
  /**
   * METRICS_TOKEN: when set (16 characters or more), `GET /metrics` on the main port answers the metrics to
   * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); unset (default): the main port has no /metrics.
   */
  metricsToken: string | null;
  /** Public origin of this service, no trailing slash (default http://localhost:PORT). */
  publicUrl: string;
  /**
   * Directory of the embedded database and generated secrets: DATA_DIR (a relative path is resolved against the
   * working directory); default `apps/api/.data` (`DEFAULT_DATA_DIR`) whatever the working directory is.
   */
  dataDir: string;
  /** When set, PostgreSQL through `pg`; otherwise PGlite under dataDir. */
  databaseUrl: string | null;
  /** Connections in this instance's `pg` pool (DATABASE_POOL_MAX, default 10). */
  databasePoolMax: number;
  /**
   * The longest one SQL statement of this instance may run on PostgreSQL, seconds (DATABASE_STATEMENT_TIMEOUT_SECONDS,
   * default 30, 0 = no bound): PostgreSQL's `statement_timeout` on every pooled connection, so a statement stuck
   * behind a lock or a runaway plan cannot hold a connection (and the request) for ever; it fails with SQLSTATE 57014
   * and its request answers 503 `api.service_unavailable` (db/unavailable.ts). The migrations run without it.
   */
  databaseStatementTimeoutSeconds: number;
  /**
   * A CSV ticket import of more data rows than this runs in the background (IMPORT_BACKGROUND_ROWS, 0 to
   * `IMPORT_MAX_ROWS`, default {@link IMPORT_BACKGROUND_ROWS}; decision 040): 202 and an `importId`, written in
   * chunks of short transactions. A smaller file is imported in the request as before (one short transaction).
   */
  importBackgroundRows: number;
  /**
   * Rows one transaction of a background import writes (IMPORT_CHUNK_ROWS, 1 to 10,000, default
   * {@link IMPORT_CHUNK_ROWS}; decision 040): on PGlite every other request waits for that transaction, about
   * 0.1-0.4 ms a row.
   */
  importChunkRows: number;
  /**
   * The embedded database's memory (decision 041): PGLITE_SHARED_BUFFERS_MB (PostgreSQL's `shared_buffers` inside
   * PGlite, MiB, 1 to 1,024, default 16) and PGLITE_THREAD_YOUNG_GENERATION_MB (the database thread's V8 young
   * generation, MiB, 1 to 512, default 8). Unused on PostgreSQL.
   */
  pgliteMemory: PgliteMemoryOptions;
  /** Bits of an IPv6 client address that key its per-IP limits (RATE_LIMIT_IPV6_PREFIX, 1-128, default 64). */
  rateLimitIpv6Prefix: number;
  /**
   * REDIS_URL (e.g. redis://127.0.0.1:6379): when set, rate limits are counted in Redis, shared by every
   * instance; unset: in process memory (one instance). See docs/decisions/005-many-instances.md.
   */
  redisUrl: string | null;
  /**
   * Fastify `trustProxy` (TRUST_PROXY): false (default) keys limits on the socket's address; a hop count
   * (`1`) or a list of proxy addresses/CIDRs (`10.0.0.0/8,127.0.0.1`) takes the client from X-Forwarded-For.
   */
  trustProxy: false | number | string[];
  /** Seconds between two housekeeping runs (HOUSEKEEPING_INTERVAL_SECONDS, default 3600; 0 turns it off). */
  housekeepingIntervalSeconds: number;
  /**
   * Hours before an event's start when its holders get the reminder e-mail (REMINDER_HOURS, default 24; issue 23),
   * sent by the housekeeping run that first finds the event within them (so up to one housekeeping interval later).
   */
  reminderHours: number;
  /**
   * Days expired sign-in requests, ended sessions with their refresh tokens, and processed webhook events are
   * kept before housekeeping deletes them (HOUSEKEEPING_RETENTION_DAYS, default 7).
   */
  housekeepingRetentionDays: number;
  /** Days a check-in log row (issue 26 point 7) is kept after its scan (CHECKIN_LOG_RETENTION_DAYS, default 400). */
  checkInLogRetentionDays: number;
  /** Days an audit trail entry (issue 25) is kept (AUDIT_RETENTION_DAYS, default 365; at least 1). */
  auditRetentionDays: number;
  /** Seconds between two ticks of the webhook delivery worker (WEBHOOK_WORKER_INTERVAL_SECONDS, default 5; 0 turns it off). */
  webhookWorkerIntervalSeconds: number;
  /**
   * Deliveries one claim of the webhook worker takes at most (WEBHOOK_BATCH_SIZE, default 20; at most 2 per
   * endpoint); an instance has at most 5 × this many in flight.
   */
  webhookBatchSize: number;
  /** Bound on one delivery (connect + answer), seconds (WEBHOOK_TIMEOUT_SECONDS, default 10). */
  webhookTimeoutSeconds: number;
  /**
   * Attempts of one delivery before it is marked failed (WEBHOOK_MAX_ATTEMPTS, default 16: with the backoff of
   * `delivery-backoff.ts` that is more than a day of retries even with the shortest jitter).
   */
  webhookMaxAttempts: number;
  /**
   * Webhook endpoints one organisation may register (WEBHOOK_ENDPOINTS_PER_ORGANISATION, default 10; at least 1):
   * the next create answers 409 `api.org.webhook_limit_reached` (issue 39).
   */
  webhookEndpointsPerOrganisation: number;
  /**
   * Deliveries of one organisation, all its endpoints together, an instance has in flight at most
   * (WEBHOOK_IN_FLIGHT_PER_ORGANISATION, default 10; at least 1), so many slow endpoints of one organisation never
   * fill the instance's room for everyone else's (issue 39).
   */
  webhookInFlightPerOrganisation: number;
  /**
   * WEBHOOK_ALLOW_LOCAL_URLS: when true, webhook URLs may be `http:` on a loopback host and may resolve to private
   * addresses (tests, local development). Default true outside production, false in production (https only,
   * private, loopback and link-local addresses refused after DNS resolution).
   */
  webhookAllowLocalUrls: boolean;
  /**
   * LOGO_ALLOW_LOCAL_URLS: when true, an organisation's logo (fetched once for its e-mails, issue 41 point 9) may be
   * fetched over `http:` from a loopback host and from private addresses (tests, local development: the demo logo
   * is a path on PUBLIC_URL). Default true outside production, false in production (https only, private, loopback
   * and link-local addresses refused after DNS resolution, as for webhooks).
   */
  logoAllowLocalUrls: boolean;
  /**
   * Milliseconds between two polls of the durable job queue's worker (JOB_POLL_MS, default 2000; 0 turns the timer
   * off). A job enqueued by this instance is claimed at once anyway; the poll finds other instances' jobs and retries.
   */
  jobPollMs: number;
  /**
   * Seconds a worker's claim on a job is leased (JOB_LEASE_SECONDS, default 300): no other worker takes the job
   * meanwhile; a job of a worker that died is run again once its lease has passed.
   */
  jobLeaseSeconds: number;
  /**
   * Attempts of one job (an e-mail) before it is kept as failed for the operator (JOB_MAX_ATTEMPTS, default 8: with
   * the backoff of 30 s doubling to at most one hour, about an hour of retries).
   */
  jobMaxAttempts: number;
  /**
   * E-mails one instance sends at once (JOB_MAIL_CONCURRENCY, default 8, 1 to 16; decision 030's lanes): a relay
   * that stalls on one recipient holds one of them until SMTP_SOCKET_TIMEOUT_SECONDS, the others keep sending. Also
   * the idle SMTP connections kept for reuse (issue 44: one a slot; a send never shares a connection in use). A send
   * far past the lane's usual time gives its slot back and runs on, parked (at most 32 at once; decision 030), so
   * connections to the relay can reach this plus 32.
   * Why 8 (issue 44): the lane sends about this many ÷ the relay's time a message, and a send waits on the relay
   * (100–300 ms a message with a provider) far longer than it uses this process or the database; 4 sent 16 a second
   * on PGlite (150 ms a message), no more than a gate's 1,000 sign-ins a minute, so codes queued (p99 5.7 s) and bulk
   * mail stopped; 8 sent 32 a second (p99 0.9 s). Capped at DATABASE_POOL_MAX − 2 (`laneConcurrency`).
   */
  jobMailConcurrency: number;
  /**
   * Seconds after which a mail's recipient domain counts as slow (JOB_SLOW_DESTINATION_SECONDS, default 5; issue 39
   * item 2): a send to it that took this long marks the domain slow for 10 minutes (or until a faster success), and
   * all slow domains together send one mail at a time, so relays stalling on many domains hold one slot of the mail
   * lane. However healthy, one domain takes at most JOB_MAIL_CONCURRENCY − 1 slots.
   */
  jobSlowDestinationSeconds: number;
  /**
   * Wallet update jobs (Apple pushes; Google object updates, each wallet in a lane of its own) one instance runs at
   * once per wallet (JOB_WALLET_CONCURRENCY, default 2, 1 to 16).
   */
  jobWalletConcurrency: number;
  /**
   * Seconds a due job may wait before its lane counts as stalled (JOB_QUEUE_ALERT_SECONDS, default 120): the
   * `tp_job_queue_stalled{lane}` metric turns 1 past it (the README's alert rule fires on it).
   */
  jobQueueAlertSeconds: number;
  /**
   * Seconds to open an SMTP connection and to get the server's greeting (SMTP_CONNECT_TIMEOUT_SECONDS, default 10;
   * nodemailer's own are 2 min and 30 s).
   */
  smtpConnectTimeoutSeconds: number;
  /**
   * Seconds an SMTP connection may stay silent, e.g. a relay that never answers RCPT TO (SMTP_SOCKET_TIMEOUT_SECONDS,
   * default 30; nodemailer's own is 10 minutes).
   */
  smtpSocketTimeoutSeconds: number;
  /** Bound on sending one e-mail, connection included, seconds (SMTP_SEND_TIMEOUT_SECONDS, default 60). */
  smtpSendTimeoutSeconds: number;
  /** Seconds to open the HTTP/2 connection to APNs (APNS_CONNECT_TIMEOUT_SECONDS, default 10). */
  apnsConnectTimeoutSeconds: number;
  /**
   * Bound on one APNs push, connection included, seconds (APNS_TIMEOUT_SECONDS, default 10): past it the push
   * fails (its job is retried) and the session is destroyed, so the next push opens a new one.
   */
  apnsTimeoutSeconds: number;
  /** Bound on one Google Wallet REST call (token or API), connection included, seconds (GOOGLE_WALLET_TIMEOUT_SECONDS, default 10). */
  googleWalletTimeoutSeconds: number;
  /** Bound on one Stripe API request from connection to the last byte of its answer, seconds (STRIPE_TIMEOUT_SECONDS, default 20; the SDK's own is 80). */
  stripeTimeoutSeconds: number;
  /**
   * Most Stripe API calls one instance makes at once (STRIPE_MAX_IN_FLIGHT, default 8, 1 to 64): a call past it answers
   * 503 `api.service_unavailable` at once, so a silent Stripe holds at most this many of the instance's in-flight
   * requests (issue 39).
   */
  stripeMaxInFlight: number;
  /** Payout onboardings (POST /resell/stripe-connect) per holder a minute (PAYOUT_CONNECTS_PER_USER_PER_MINUTE, 5). */
  payoutConnectsPerMinute: number;
  /** Bound on finishing in-flight requests after SIGTERM/SIGINT, seconds (SHUTDOWN_TIMEOUT_SECONDS, default 10). */
  shutdownTimeoutSeconds: number;
  /**
   * Idle bound of a client connection, seconds (CONNECTION_TIMEOUT_SECONDS, default 60; Fastify's
   * `connectionTimeout`): a socket on which no byte moves either way for this long (a client that sent part of a
   * request and stalled, or a handler silent that long) is closed. Between requests of a keep-alive connection
   * `keepAliveTimeoutSeconds` applies instead. Decision 039.
   */
  connectionTimeoutSeconds: number;
  /**
   * Bound on receiving one whole request, headers and body, seconds (REQUEST_TIMEOUT_SECONDS, default 120;
   * Fastify's `requestTimeout`, 0 there = none): a client trickling its body (slow upload, slowloris) gets 408 and a
   * closed connection. Long enough for the largest body (a 5 MiB import) on a slow phone link.
   */
  requestTimeoutSeconds: number;
  /**
   * Bound on receiving a request's headers, seconds (HEADERS_TIMEOUT_SECONDS, default 20, at most
   * REQUEST_TIMEOUT_SECONDS; Node's `headersTimeout`): a client trickling header lines gets 408 and a closed
   * connection. Node checks it every `min(30, HEADERS_TIMEOUT_SECONDS / 2)` seconds.
   */
  headersTimeoutSeconds: number;
  /**
   * How long an idle keep-alive connection is kept for its next request, seconds (KEEP_ALIVE_TIMEOUT_SECONDS,
   * default 72, Fastify's default): above the usual load balancers' idle timeout (60 s), so the balancer, not this
   * service, closes an idle connection, and never one it is about to reuse.
   */
  keepAliveTimeoutSeconds: number;
  /**
   * Load shedding (decision 039): the mean event loop delay of one sample window past which `/v1` requests are
   * refused with 503 `api.busy`, milliseconds (SHED_EVENT_LOOP_DELAY_MS, default 1000; 0 = not checked).
   */
  shedEventLoopDelayMs: number;
  /**
   * Load shedding: the event loop utilisation (0-1, share of one sample window the loop was busy) past which `/v1`
   * requests are refused (SHED_EVENT_LOOP_UTILIZATION, default 0 = not checked; 0.98 is a usual bound).
   */
  shedEventLoopUtilization: number;
  /**
   * Load shedding: database requests waiting for a connection (the `pg` pool's waiting clients, or the
   * statements queued for PGlite's thread), beyond the `/v1` requests in flight, past which `/v1` requests are
   * refused (SHED_DATABASE_WAITING, default 100; 0 = not checked).
   */
  shedDatabaseWaiting: number;
  /**
   * Load shedding (issue 44): `/v1` requests being handled at once past which a new one is refused at once with 503
   * `api.busy` (SHED_MAX_IN_FLIGHT, default 64; 0 = no bound). Bounds the queue inside the instance, so an
   * admitted request waits at most about this many others' time, whatever the machine's load (bench/shed.ts). The
   * floor of the bound that `shedInFlightWaitMs` grows.
   */
  shedMaxInFlight: number;
  /**
   * Load shedding (issue 44, decision 051): the in-flight bound grows with the instance's pace, to the `/v1`
   * requests it finished in the last sample window times this many milliseconds (SHED_IN_FLIGHT_WAIT_MS, default
   * 200; 0 = the bound stays `shedMaxInFlight`): an admitted request waits behind about this long of work whatever the
   * pace, where a fixed count is 60 ms at 1,000 answers a second and refused momentary peaks far under any latency
   * target. `shedMaxInFlight` stays the floor; the database queue's bound moves up with it.
   */
  shedInFlightWaitMs: number;
  /** Load shedding: how often the event loop and the database queue are sampled, milliseconds (SHED_SAMPLE_INTERVAL_MS, default 1000, at least 10). */
  shedSampleIntervalMs: number;
  /** Load shedding: the `Retry-After` of a shed request and of a busy `/readyz`, seconds (SHED_RETRY_AFTER_SECONDS, default 5). */
  shedRetryAfterSeconds: number;
  /** When set, nodemailer over SMTP (e.g. smtp://127.0.0.1:2525); otherwise the dev outbox. */
  smtpUrl: string | null;
  mailFrom: string;
  /** QR code time step, seconds (default 30). */
  qrTtlSeconds: number;
  /** HMAC/JWT secret (JWT_SECRET; generated into dataDir when unset). */
  jwtSecret: Uint8Array;
  /**
   * The 32-byte Ed25519 seed that signs entry passes and device certificates (decision 010):
   * PASS_SIGNING_KEY (base64url), else derived from the JWT secret under its own label, so every
   * instance sharing JWT_SECRET signs with the same key and nothing new is stored.
   */
  passSigningKey: Uint8Array;
  /**
   * Raw 32-byte public keys of earlier pass-signing keys still accepted at the door during a rotation
   * (PASS_PREVIOUS_PUBLIC_KEYS, comma-separated base64url; default none).
   */
  passPreviousPublicKeys: Uint8Array[];
  /** Longest life of a device pass certificate, seconds (PASS_CREDENTIAL_TTL_SECONDS, default and max 86400). */
  passCredentialTtlSeconds: number;
  /** Clock-skew allowance of device codes, in time steps (PASS_SKEW_STEPS, default 1; decision 010). */
  passSkewSteps: number;
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
  /**
   * How old a proof of presence may be for a route that moves a ticket or money (issue 47), seconds
   * (STEP_UP_MAX_AGE_SECONDS, default 300, 5 to 3,600): the sign-in or the last step-up code verified.
   */
  stepUpMaxAgeSeconds: number;
  /**
   * Step-up codes one signed-in session may ask for in 24 hours (STEP_UP_CODES_PER_DAY, default 10; decision 048): with
   * five tries each, a stolen session's guesses a day.
   */
  stepUpCodesPerDay: number;
  /** Per-IP limits per minute on requesting and verifying codes. */
  otpRequestsPerIpPerMinute: number;
  otpVerifiesPerIpPerMinute: number;
  /** Redeem attempts per IP per minute (REDEEM_PER_IP_PER_MINUTE, default 10). */
  redeemPerMinute: number;
  /**
   * Purchases started on a public resale page (`POST /r/{token}`) per client IP a minute (RESALE_BUYS_PER_IP_PER_MINUTE,
   * default 10, at least 1): each may hold tickets and call Stripe, so anonymous loops must not take the Stripe slots
   * (STRIPE_MAX_IN_FLIGHT) from real buyers. Past it the page answers 429 with its own message.
   */
  resaleBuysPerIpPerMinute: number;
  /** Username searches per signed-in account per minute (USERNAME_SEARCHES_PER_USER_PER_MINUTE, default 30). */
  userSearchesPerMinute: number;
  /**
   * Gifts per signed-in account per minute (GIFTS_PER_USER_PER_MINUTE, default 10; 429 `api.too_many_requests`):
   * each one moves a ticket and sends two e-mails, one to any address (issue 39, thirteenth re-run: one ticket gifted
   * along 90 fresh accounts at 20 a second).
   */
  giftsPerMinute: number;
  /**
   * Passkey ceremonies of a signed-in account per minute (PASSKEYS_PER_USER_PER_MINUTE, default 20; 429
   * `api.too_many_requests`): registration options and registrations, step-up options and assertions, counted together
   * beside the per-IP limits (issue 47: "registration and assertion per account and IP"). A sign-in's assertion names
   * no account until it is checked: per IP only.
   */
  passkeysPerUserPerMinute: number;
  /**
   * Refund requests and withdrawals (issue 46) per signed-in account per minute (REFUND_REQUESTS_PER_USER_PER_MINUTE,
   * default 10; 429 `api.too_many_requests`): each request tells the organiser (a webhook).
   */
  refundRequestsPerMinute: number;
  /**
   * Exchange queue changes (join, leave, decline, return, withdraw; issue 45) per signed-in account per minute
   * (EXCHANGE_PER_USER_PER_MINUTE, default 10) and per client IP (EXCHANGE_PER_IP_PER_MINUTE, default 60; a venue's
   * or an office's fans may share one address). 429 `api.too_many_requests`.
   */
  exchangePerUserPerMinute: number;
  exchangePerIpPerMinute: number;
  /**
   * The key door staff enter on the scanner page (`/scanner`); sent as header `x-scanner-key` to
   * /v1/access/*. SCANNER_KEY; when unset, generated once into DATA_DIR/scanner-key.
   */
  scannerKey: string;
  /**
   * The platform key that creates organisations and manages their API keys (`/v1/admin/*`, sent as
   * `Authorization: Bearer <key>`). ADMIN_KEY; when unset, generated once into DATA_DIR/admin-key (like the
   * scanner key).
   */
  adminKey: string;
  /** Door check-ins per IP per minute (CHECK_IN_PER_IP_PER_MINUTE, default 600: a venue's scanners may share one IP). */
  checkInPerMinute: number;
  /** Door event lists per IP per minute with the right key (ACCESS_EVENTS_PER_IP_PER_MINUTE, default 60). */
  accessEventsPerMinute: number;
  /**
   * Wrong scanner keys per IP per minute on /v1/access/* before they get 429
   * (SCANNER_KEY_FAILURES_PER_IP_PER_MINUTE, default 10); never counted against the right key's limits.
   */
  scannerKeyFailuresPerMinute: number;
  /** Deadline of one avatar upload's decoding, milliseconds, queue wait included (10 s); see avatar.service.ts. */
  /** Wrong organisation API keys and wrong ADMIN_KEY per client IP a minute, then 429 (KEY_FAILURES_PER_IP_PER_MINUTE, 10). */
  keyFailuresPerMinute: number;
  /** Organisation API requests per organisation a minute, all its keys together (ORG_API_PER_ORGANISATION_PER_MINUTE, 600). */
  orgApiPerMinute: number;
  /** Account exports per holder a minute (ACCOUNT_EXPORTS_PER_USER_PER_MINUTE, 5). */
  accountExportsPerMinute: number;
  /**
   * Wallet requests a minute per client IP (WALLET_PER_IP_PER_MINUTE, 60): the pass and save-link routes
   * (each signs a pass or calls Google) and Apple's pass update web service.
   */
  walletPerMinute: number;
  /**
   * Pass downloads (Apple `.pkpass`, Google save link) per signed-in holder a minute
   * (WALLET_PASSES_PER_USER_PER_MINUTE, 10), beside the per-IP limit: each signs a pass or calls Google.
   */
  walletPassesPerUserPerMinute: number;
  /**
   * Avatar uploads per signed-in holder a minute (AVATAR_UPLOADS_PER_HOLDER_PER_MINUTE, 10; 429
   * `api.too_many_requests` past it): ten accounts sending 1 × 1 PNGs as fast as answered kept the decoding queue
   * full and another holder's photos were refused (issue 39 item 9, twelfth re-run); a person trying pictures sends
   * a few.
   */
  avatarUploadsPerHolderPerMinute: number;
  /**
   * Requests to Apple's unauthenticated device-log endpoint (`POST /v1/wallet/apple/v1/log`) per client IP a
   * minute (WALLET_LOG_PER_IP_PER_MINUTE, 10); its body is at most 16 KiB and it logs at most 10 lines of 200
   * characters a request.
   */
  walletLogPerMinute: number;
  /** Offline-pass credentials issued per holder a minute (PASS_CREDENTIALS_PER_USER_PER_MINUTE, 10). */
  passCredentialsPerMinute: number;
  /** Door sync batches per client IP a minute, right scanner key (DOOR_SYNC_PER_IP_PER_MINUTE, 60). */
  doorSyncPerMinute: number;
  /**
   * An avatar upload's deadline, milliseconds, its wait for a decoding process included (AVATAR_DEADLINE_SECONDS,
   * 10, at least 1): past it the upload is answered `api.profile.avatar_timeout` and its decoding process killed.
   */
  avatarDeadlineMs: number;
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
  /** Wallet passes (issue 22, decision 029): which wallets are configured, and where their credentials are. */
  wallet: WalletConfig;
}

/**
 * Apple Wallet's credentials: the Pass Type ID certificate and key (PEM files), chained to Apple's WWDR
 * intermediate (PEM). In test mode they are the server's own, made in DATA_DIR/wallet-test.
 */
export interface AppleWalletConfig {
  /** APPLE_PASS_TYPE_ID, e.g. `pass.com.example.tickets`. */
  passTypeId: string;
  /** APPLE_TEAM_ID (10 characters). */
  teamId: string;
  /** APPLE_PASS_CERT_PATH: the Pass Type ID certificate, PEM. */
  certPath: string;
  /** APPLE_PASS_KEY_PATH: its private key, PEM. */
  keyPath: string;
  /** APPLE_PASS_KEY_PASSPHRASE: the key's passphrase, if it has one. */
  keyPassphrase: string | null;
  /** APPLE_WWDR_CERT_PATH: Apple's WWDR intermediate certificate (G4), PEM. */
  wwdrPath: string;
  /**
   * APPLE_APNS_URL: where pass update pushes go (default `https://api.push.apple.com`, authenticated with the
   * Pass Type ID certificate and key above); null in test mode: a local HTTP/2 fake.
   */
  apnsUrl: string | null;
}

/** Google Wallet's credentials. In test mode a local RSA key in DATA_DIR/wallet-test. */
export interface GoogleWalletConfig {
  /** GOOGLE_WALLET_ISSUER_ID: the issuer's numeric id in the Google Pay & Wallet console. */
  issuerId: string;
  /** GOOGLE_WALLET_SERVICE_ACCOUNT_KEY_PATH: the service account's JSON key (`client_email`, `private_key`). */
  serviceAccountKeyPath: string;
}

/** Wallet passes' settings (decision 029). A wallet is null when not configured: no button, its route 404s. */
export interface WalletConfig {
  /**
   * WALLET_TEST_MODE=true (refused with NODE_ENV=production): the server makes its own CA, Pass Type certificate
   * and Google key in `dir` and serves the CA at GET /v1/wallet/test-ca.pem, so passes are issued and verified
   * with no Apple or Google account. Both wallets are then configured.
   */
  testMode: boolean;
  /** Where test mode keeps what it made (DATA_DIR/wallet-test). */
  dir: string;
  apple: AppleWalletConfig | null;
  google: GoogleWalletConfig | null;
  /**
   * Apple devices registered for one pass's pushes (WALLET_DEVICES_PER_PASS, 5, at least 1): a further device
   * evicts the registration registered longest ago, so one move never pushes more than this many devices.
   */
  devicesPerPass: number;
  /**
   * Passes one Apple device library id is registered for (WALLET_PASSES_PER_DEVICE, 100, at least 1): a further
   * pass evicts the device's oldest registration.
   */
  passesPerDevice: number;
  /** Where Apple passes are built and signed: worker threads off the event loop (decision 029, issue 39). */
  signing: PassSigningConfig;
}

/**
 * Apple pass signing (issue 39, break 5): the zip and its PKCS #7 signature are built on worker threads, never on
 * the event loop; admission is bounded and each pass has a deadline (modules/wallet/pass-signer.ts).
 */
export interface PassSigningConfig {
  /**
   * WALLET_SIGNING_THREADS: passes signed at once, one worker thread each (default: the machine's cores less one,
   * at least 1, at most 4; 1 on 2 cores, so the event loop keeps a core of its own).
   */
  threads: number;
  /**
   * WALLET_SIGNING_QUEUE (default 16): passes waiting for a free thread; one more is refused at once with
   * `503 api.wallet.busy` and `Retry-After`.
   */
  queue: number;
  /**
   * WALLET_SIGNING_DEADLINE_SECONDS (default 10, at least 1): one pass's deadline, milliseconds here, its wait in
   * the queue included; past it the pass is answered `503 api.wallet.busy` and a thread still signing it is
   * stopped and replaced.
   */
  deadlineMs: number;
}

/** Test mode's Apple pass type identifier and team id (the certificates are made for them). */
export const WALLET_TEST_PASS_TYPE_ID = 'pass.test.ticketpanel';
export const WALLET_TEST_TEAM_ID = 'TESTTEAM00';
/** Test mode's Google issuer id (made up: the Google calls go to a local fake). */
export const WALLET_TEST_ISSUER_ID = '3388000000000000000';

/** The wallet settings from the environment (see {@link WalletConfig}). */
function walletFrom(env: NodeJS.ProcessEnv, dataDir: string): WalletConfig {
  const dir = join(dataDir, 'wallet-test');
  const caps = {
    devicesPerPass: Math.max(1, int('WALLET_DEVICES_PER_PASS', env.WALLET_DEVICES_PER_PASS, 5)),
    passesPerDevice: Math.max(1, int('WALLET_PASSES_PER_DEVICE', env.WALLET_PASSES_PER_DEVICE, 100)),
  };
  const signing = passSigningFrom(env);
  if (env.WALLET_TEST_MODE === 'true')
    return {
      ...caps,
      testMode: true,
      dir,
      signing,
      apple: {
        passTypeId: WALLET_TEST_PASS_TYPE_ID,
        teamId: WALLET_TEST_TEAM_ID,
        certPath: join(dir, 'pass-signer.pem'),
        keyPath: join(dir, 'pass-signer-key.pem'),
        keyPassphrase: null,
        wwdrPath: join(dir, 'test-ca.pem'),
        apnsUrl: null,
      },
      google: { issuerId: WALLET_TEST_ISSUER_ID, serviceAccountKeyPath: join(dir, 'google-service-account.json') },
    };
  const apple =
    env.APPLE_PASS_TYPE_ID &&
    env.APPLE_TEAM_ID &&
    env.APPLE_PASS_CERT_PATH &&
    env.APPLE_PASS_KEY_PATH &&
    env.APPLE_WWDR_CERT_PATH
      ? {
          passTypeId: env.APPLE_PASS_TYPE_ID,
          teamId: env.APPLE_TEAM_ID,
          certPath: resolve(env.APPLE_PASS_CERT_PATH),
          keyPath: resolve(env.APPLE_PASS_KEY_PATH),
          keyPassphrase: env.APPLE_PASS_KEY_PASSPHRASE || null,
          wwdrPath: resolve(env.APPLE_WWDR_CERT_PATH),
          apnsUrl: env.APPLE_APNS_URL || 'https://api.push.apple.com',
        }
      : null;
  const google =
    env.GOOGLE_WALLET_ISSUER_ID && env.GOOGLE_WALLET_SERVICE_ACCOUNT_KEY_PATH
      ? {
          issuerId: env.GOOGLE_WALLET_ISSUER_ID,
          serviceAccountKeyPath: resolve(env.GOOGLE_WALLET_SERVICE_ACCOUNT_KEY_PATH),
        }
      : null;
  return { ...caps, testMode: false, dir, apple, google, signing };
}

/** The pass-signing pool's settings from the environment (see {@link PassSigningConfig}). */
function passSigningFrom(env: NodeJS.ProcessEnv): PassSigningConfig {
  const cores = availableParallelism();
  return {
    threads: Math.max(
      1,
      int('WALLET_SIGNING_THREADS', env.WALLET_SIGNING_THREADS, Math.min(4, Math.max(1, cores - 1))),
    ),
    queue: int('WALLET_SIGNING_QUEUE', env.WALLET_SIGNING_QUEUE, 16),
    deadlineMs: Math.max(1, int('WALLET_SIGNING_DEADLINE_SECONDS', env.WALLET_SIGNING_DEADLINE_SECONDS, 10)) * 1000,
  };
}

const apiRoot = resolve(import.meta.dirname, '..');

/** Default of `importBackgroundRows`: a file over this many rows is imported in the background (decision 040). */
export const IMPORT_BACKGROUND_ROWS = 500;
/** Default of `importChunkRows`: rows one write transaction of a background import takes (decision 040). */
export const IMPORT_CHUNK_ROWS = 1000;

/**
 * How much memory the embedded database takes (decision 041; db/pglite-proxy.ts applies it): PostgreSQL's
 * `shared_buffers` inside PGlite's WebAssembly memory, and the young generation of the database thread's V8 heap.
 */
export interface PgliteMemoryOptions {
  /** PostgreSQL's `shared_buffers`, MiB (PGlite's own default 128; `wal_buffers` follows at 1/32 of it). */
  sharedBuffersMb: number;
  /** `maxYoungGenerationSizeMb` of the database thread, MiB (V8's own default on a large machine: about 128). */
  youngGenerationMb: number;
}

/**
 * Defaults of {@link PgliteMemoryOptions}, the tests' and the server's: one process on PGlite stays within 256 MiB
 * resident idle and 400 MiB under holder load (issue 44, measured in decision 041).
 */
export const PGLITE_MEMORY_DEFAULTS: PgliteMemoryOptions = { sharedBuffersMb: 16, youngGenerationMb: 8 };

function pgliteMemory(env: NodeJS.ProcessEnv): PgliteMemoryOptions {
  const mib = (name: string, max: number, fallback: number) => {
    const n = int(name, env[name], fallback);
    if (n < 1 || n > max) throw new Error(`config: ${name} must be between 1 and ${max} (MiB)`);
    return n;
  };
  return {
    sharedBuffersMb: mib('PGLITE_SHARED_BUFFERS_MB', 1024, PGLITE_MEMORY_DEFAULTS.sharedBuffersMb),
    youngGenerationMb: mib('PGLITE_THREAD_YOUNG_GENERATION_MB', 512, PGLITE_MEMORY_DEFAULTS.youngGenerationMb),
  };
}

/** An integer setting that must lie within [min, max]. @throws Error naming the variable and its range. */
function intWithin(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  const n = int(name, value, fallback);
  if (n < min || n > max) throw new Error(`config: ${name} must be between ${min} and ${max}`);
  return n;
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`config: ${name} must be a non-negative integer`);
  return n;
}

/** A positive number of seconds (fractions allowed: `0.5`); throws naming the variable otherwise. */
function seconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`config: ${name} must be a positive number of seconds`);
  return n;
}

/** A number from 0 to 1 (`0.98`); throws naming the variable otherwise. */
function fraction(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error(`config: ${name} must be a number from 0 to 1`);
  return n;
}

/**
 * The HTTP server's timeouts (decision 039), seconds: CONNECTION_TIMEOUT_SECONDS, REQUEST_TIMEOUT_SECONDS,
 * HEADERS_TIMEOUT_SECONDS (at most the request timeout, as Node requires), KEEP_ALIVE_TIMEOUT_SECONDS.
 */
function serverTimeouts(
  env: NodeJS.ProcessEnv,
): Pick<
  Config,
  'connectionTimeoutSeconds' | 'requestTimeoutSeconds' | 'headersTimeoutSeconds' | 'keepAliveTimeoutSeconds'
> {
  const requestTimeoutSeconds = seconds('REQUEST_TIMEOUT_SECONDS', env.REQUEST_TIMEOUT_SECONDS, 120);
  return {
    connectionTimeoutSeconds: seconds('CONNECTION_TIMEOUT_SECONDS', env.CONNECTION_TIMEOUT_SECONDS, 60),
    requestTimeoutSeconds,
    headersTimeoutSeconds: Math.min(
      requestTimeoutSeconds,
      seconds('HEADERS_TIMEOUT_SECONDS', env.HEADERS_TIMEOUT_SECONDS, 20),
    ),
    keepAliveTimeoutSeconds: seconds('KEEP_ALIVE_TIMEOUT_SECONDS', env.KEEP_ALIVE_TIMEOUT_SECONDS, 72),
  };
}

/** `n` kept within [min, max]. */
const between = (min: number, max: number, n: number): number => Math.min(max, Math.max(min, n));

/** METRICS_PORT: unset or empty -> null (no metrics listener), else a port number. */
function metricsPortFrom(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = int('METRICS_PORT', value.trim(), 0);
  if (n > 65535) throw new Error('config: METRICS_PORT must be a port number (0-65535)');
  return n;
}

/** METRICS_TOKEN: unset or empty -> null (no /metrics on the main port); shorter than 16 characters is refused. */
function metricsTokenFrom(value: string | undefined): string | null {
  const token = (value ?? '').trim();
  if (token === '') return null;
  if (token.length < 16) throw new Error('config: METRICS_TOKEN must be at least 16 characters');
  return token;
}

function secretFrom(env: NodeJS.ProcessEnv, dataDir: string): Uint8Array {
  if (env.JWT_SECRET) return new TextEncoder().encode(env.JWT_SECRET);
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

/**
 * TRUST_PROXY: unset, empty or `false` -> false; an integer -> that many proxy hops; otherwise a
 * comma-separated list of proxy addresses or CIDRs (as Fastify's `trustProxy` takes them).
 */
function trustProxyFrom(value: string | undefined): false | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A base64url 32-byte key from a variable; throws naming the variable when malformed. */
function key32(name: string, value: string): Uint8Array {
  const b = Buffer.from(value.trim(), 'base64url');
  if (b.length !== 32 || !/^[A-Za-z0-9_-]{43}$/.test(value.trim()))
    throw new Error(`config: ${name} must be 32 bytes in base64url (43 characters)`);
  return new Uint8Array(b);
}

/** The value of a key variable, or a random key generated once into dataDir/<file> (like the JWT secret). */
/**
 * An operator's secret: `value` when set (16 characters or more, issue 39 item 11: a 5-character ADMIN_KEY was
 * guessed through the limits), else generated once into `dataDir/file` (`bytes` random bytes, base64url).
 * @param name the variable, for the error
 */
function keyFrom(name: string, value: string | undefined, dataDir: string, file: string, bytes: number): string {
  if (value && value.length < 16) throw new Error(`config: ${name} must be at least 16 characters`);
  if (value) return value;
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, file);
  if (!existsSync(path)) writeFileSync(path, randomBytes(bytes).toString('base64url'), { mode: 0o600 });
  return readFileSync(path, 'utf8').trim();
}

/** CSP sources of EMBED_ORIGINS, or of PUBLIC_URL's site (registrable domain and its subdomains) when unset. */
function embedOriginsFrom(value: string | undefined, publicUrl: string): string[] {
  if (value === undefined || value.trim() === '') {
    const url = new URL(publicUrl);
    // A loopback PUBLIC_URL (npm start, tests) is one site whatever the name or port: localhost and 127.0.0.1.
    if (['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
      return ["'self'", 'http://localhost:*', 'http://127.0.0.1:*'];
    const domain = getDomain(url.hostname);
    return ["'self'", ...(domain ? [`${url.protocol}//${domain}`, `${url.protocol}//*.${domain}`] : [url.origin])];
  }
  const origins = value
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const o of origins)
    if (!/^https?:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i.test(o))
      throw new Error(`config: EMBED_ORIGINS must be comma-separated origins like https://example.com, got "${o}"`);
  return ["'self'", ...origins];
}

/**
 * What stops a production start (NODE_ENV=production): no SMTP_URL (sign-in codes would only reach the
 * console), no STRIPE_SECRET_KEY (the payout sandbox lets anyone "pay" and be paid), no
 * CHECKOUT_BASE_URL (the sandbox swap checkout confirms upgrades without payment). ALLOW_SANDBOX=true
 * turns these into warnings. Empty outside production.
 */
function productionProblems(env: NodeJS.ProcessEnv): string[] {
  if (env.NODE_ENV !== 'production') return [];
  return [
    !env.SMTP_URL && 'SMTP_URL is not set (mail would only reach the console)',
    !env.STRIPE_SECRET_KEY && 'STRIPE_SECRET_KEY is not set (the sandbox payment provider lets anyone pay)',
    !env.CHECKOUT_BASE_URL && 'CHECKOUT_BASE_URL is not set (the sandbox swap checkout confirms without payment)',
  ].filter((p): p is string => Boolean(p));
}

/**
 * The default DATA_DIR: `apps/api/.data`, found from this module's own place (`src/` under `tsx`, `dist/` when
 * compiled; both sit in apps/api), so `npm start` (run in apps/api), `node apps/api/dist/server.js` from the
 * repository root and the database tools all use one database (issue 41, point 11).
 */
const DEFAULT_DATA_DIR = join(apiRoot, '.data');

/**
 * Where the data lives, for the database tools (`npm run db:export`, `db:import`; decision 033) that need no more
 * of the configuration: DATA_DIR (resolved against the working directory; default `defaultDataDir`, else
 * `DEFAULT_DATA_DIR`, apps/api/.data) and DATABASE_URL (null: PGlite under DATA_DIR/pglite).
 */
export function loadDatabaseConfig(
  env: NodeJS.ProcessEnv = process.env,
  defaultDataDir = DEFAULT_DATA_DIR,
): Pick<Config, 'dataDir' | 'databaseUrl'> {
  return { dataDir: resolve(env.DATA_DIR ?? defaultDataDir), databaseUrl: env.DATABASE_URL || null };
}

/**
 * Builds the config from an environment (process.env by default); `overrides` win (tests).
 * @throws Error with a message naming the variable when a value is invalid, when NODE_ENV=production
 *   lacks SMTP_URL, STRIPE_SECRET_KEY or CHECKOUT_BASE_URL and ALLOW_SANDBOX is not `true`, or when
 *   NODE_ENV=production has STRIPE_SECRET_KEY without STRIPE_WEBHOOK_SECRET or has WALLET_TEST_MODE=true
 *   (whatever ALLOW_SANDBOX says).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const problems = productionProblems(env);
  const allowSandbox = env.ALLOW_SANDBOX === 'true';
  if (problems.length && !allowSandbox)
    throw new Error(
      `config: NODE_ENV=production refuses to start: ${problems.join('; ')}. Set them, or ALLOW_SANDBOX=true to run with sandboxes anyway.`,
    );
  // Not a sandbox that ALLOW_SANDBOX could accept: real Stripe whose webhooks cannot be verified never
  // settles a paid order (issue 19, break 9).
  if (env.NODE_ENV === 'production' && env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET)
    throw new Error(
      'config: NODE_ENV=production refuses to start: STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not (Stripe webhooks could not be verified, so no paid order would ever settle).',
    );
  if (env.NODE_ENV === 'production' && env.WALLET_TEST_MODE === 'true')
    throw new Error(
      'config: NODE_ENV=production refuses to start: WALLET_TEST_MODE=true (wallet passes signed by a test CA anyone can make).',
    );
  return buildConfig(env, overrides, {
    allowSandbox,
    warnings: problems.map((p) => `ALLOW_SANDBOX=true in production: ${p}`),
  });
}

// Over 150 lines, kept whole: one object literal with one entry per setting (each parsed by one helper call, in
// the order of the `Config` interface), no branching to speak of; split, its halves would only be lists of fields.
// eslint-disable-next-line max-lines-per-function -- one entry per setting, as the comment above says
function buildConfig(
  env: NodeJS.ProcessEnv,
  overrides: Partial<Config>,
  guards: { allowSandbox: boolean; warnings: string[] },
): Config {
  const port = int('PORT', env.PORT, 8080);
  const dataDir = overrides.dataDir ? resolve(overrides.dataDir) : loadDatabaseConfig(env).dataDir;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const jwtSecret = overrides.jwtSecret ?? secretFrom(env, dataDir);
  const smtpUrl = overrides.smtpUrl !== undefined ? overrides.smtpUrl : env.SMTP_URL || null;
  const stripeSecretKey = env.STRIPE_SECRET_KEY || null;
  const nodeEnv = env.NODE_ENV || 'development';
  return {
    nodeEnv,
    allowSandbox: guards.allowSandbox,
    devOutbox: !smtpUrl && nodeEnv !== 'production',
    warnings: guards.warnings,
    embedOrigins: embedOriginsFrom(env.EMBED_ORIGINS, publicUrl),
    formActionOrigins: [
      ...(stripeSecretKey ? ['https://checkout.stripe.com'] : []),
      ...(env.CHECKOUT_BASE_URL ? [new URL(env.CHECKOUT_BASE_URL).origin] : []),
    ],
    port,
    host: env.HOST ?? '127.0.0.1',
    metricsPort: metricsPortFrom(env.METRICS_PORT),
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    metricsToken: metricsTokenFrom(env.METRICS_TOKEN),
    publicUrl,
    dataDir,
    databaseUrl: loadDatabaseConfig(env).databaseUrl,
    databasePoolMax: Math.max(1, int('DATABASE_POOL_MAX', env.DATABASE_POOL_MAX, 10)),
    databaseStatementTimeoutSeconds: Math.max(
      0,
      int('DATABASE_STATEMENT_TIMEOUT_SECONDS', env.DATABASE_STATEMENT_TIMEOUT_SECONDS, 30),
    ),
    importBackgroundRows: intWithin(
      'IMPORT_BACKGROUND_ROWS',
      env.IMPORT_BACKGROUND_ROWS,
      IMPORT_BACKGROUND_ROWS,
      0,
      orgContract.IMPORT_MAX_ROWS,
    ),
    importChunkRows: intWithin('IMPORT_CHUNK_ROWS', env.IMPORT_CHUNK_ROWS, IMPORT_CHUNK_ROWS, 1, 10_000),
    pgliteMemory: pgliteMemory(env),
    redisUrl: env.REDIS_URL || null,
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    rateLimitIpv6Prefix: Math.min(128, Math.max(1, int('RATE_LIMIT_IPV6_PREFIX', env.RATE_LIMIT_IPV6_PREFIX, 64))),
    housekeepingIntervalSeconds: int('HOUSEKEEPING_INTERVAL_SECONDS', env.HOUSEKEEPING_INTERVAL_SECONDS, 3600),
    housekeepingRetentionDays: int('HOUSEKEEPING_RETENTION_DAYS', env.HOUSEKEEPING_RETENTION_DAYS, 7),
    reminderHours: int('REMINDER_HOURS', env.REMINDER_HOURS, 24),
    checkInLogRetentionDays: Math.max(1, int('CHECKIN_LOG_RETENTION_DAYS', env.CHECKIN_LOG_RETENTION_DAYS, 400)),
    auditRetentionDays: Math.max(1, int('AUDIT_RETENTION_DAYS', env.AUDIT_RETENTION_DAYS, 365)),
    webhookWorkerIntervalSeconds: int('WEBHOOK_WORKER_INTERVAL_SECONDS', env.WEBHOOK_WORKER_INTERVAL_SECONDS, 5),
    webhookBatchSize: Math.max(1, int('WEBHOOK_BATCH_SIZE', env.WEBHOOK_BATCH_SIZE, 20)),
    webhookTimeoutSeconds: Math.max(1, int('WEBHOOK_TIMEOUT_SECONDS', env.WEBHOOK_TIMEOUT_SECONDS, 10)),
    webhookMaxAttempts: Math.max(1, int('WEBHOOK_MAX_ATTEMPTS', env.WEBHOOK_MAX_ATTEMPTS, 16)),
    webhookEndpointsPerOrganisation: Math.max(
      1,
      int('WEBHOOK_ENDPOINTS_PER_ORGANISATION', env.WEBHOOK_ENDPOINTS_PER_ORGANISATION, 10),
    ),
    webhookInFlightPerOrganisation: Math.max(
      1,
      int('WEBHOOK_IN_FLIGHT_PER_ORGANISATION', env.WEBHOOK_IN_FLIGHT_PER_ORGANISATION, 10),
    ),
    webhookAllowLocalUrls: env.WEBHOOK_ALLOW_LOCAL_URLS
      ? env.WEBHOOK_ALLOW_LOCAL_URLS === 'true'
      : nodeEnv !== 'production',
    logoAllowLocalUrls: env.LOGO_ALLOW_LOCAL_URLS ? env.LOGO_ALLOW_LOCAL_URLS === 'true' : nodeEnv !== 'production',
    jobPollMs: int('JOB_POLL_MS', env.JOB_POLL_MS, 2000),
    jobLeaseSeconds: Math.max(1, int('JOB_LEASE_SECONDS', env.JOB_LEASE_SECONDS, 300)),
    jobMaxAttempts: Math.max(1, int('JOB_MAX_ATTEMPTS', env.JOB_MAX_ATTEMPTS, 8)),
    jobMailConcurrency: between(1, 16, int('JOB_MAIL_CONCURRENCY', env.JOB_MAIL_CONCURRENCY, 8)),
    jobSlowDestinationSeconds: seconds('JOB_SLOW_DESTINATION_SECONDS', env.JOB_SLOW_DESTINATION_SECONDS, 5),
    jobWalletConcurrency: between(1, 16, int('JOB_WALLET_CONCURRENCY', env.JOB_WALLET_CONCURRENCY, 2)),
    jobQueueAlertSeconds: Math.max(1, int('JOB_QUEUE_ALERT_SECONDS', env.JOB_QUEUE_ALERT_SECONDS, 120)),
    smtpConnectTimeoutSeconds: seconds('SMTP_CONNECT_TIMEOUT_SECONDS', env.SMTP_CONNECT_TIMEOUT_SECONDS, 10),
    smtpSocketTimeoutSeconds: seconds('SMTP_SOCKET_TIMEOUT_SECONDS', env.SMTP_SOCKET_TIMEOUT_SECONDS, 30),
    smtpSendTimeoutSeconds: seconds('SMTP_SEND_TIMEOUT_SECONDS', env.SMTP_SEND_TIMEOUT_SECONDS, 60),
    apnsConnectTimeoutSeconds: seconds('APNS_CONNECT_TIMEOUT_SECONDS', env.APNS_CONNECT_TIMEOUT_SECONDS, 10),
    apnsTimeoutSeconds: seconds('APNS_TIMEOUT_SECONDS', env.APNS_TIMEOUT_SECONDS, 10),
    googleWalletTimeoutSeconds: seconds('GOOGLE_WALLET_TIMEOUT_SECONDS', env.GOOGLE_WALLET_TIMEOUT_SECONDS, 10),
    stripeTimeoutSeconds: seconds('STRIPE_TIMEOUT_SECONDS', env.STRIPE_TIMEOUT_SECONDS, 20),
    stripeMaxInFlight: Math.min(64, Math.max(1, int('STRIPE_MAX_IN_FLIGHT', env.STRIPE_MAX_IN_FLIGHT, 8))),
    payoutConnectsPerMinute: Math.max(
      1,
      int('PAYOUT_CONNECTS_PER_USER_PER_MINUTE', env.PAYOUT_CONNECTS_PER_USER_PER_MINUTE, 5),
    ),
    shutdownTimeoutSeconds: int('SHUTDOWN_TIMEOUT_SECONDS', env.SHUTDOWN_TIMEOUT_SECONDS, 10),
    ...serverTimeouts(env),
    shedEventLoopDelayMs: int('SHED_EVENT_LOOP_DELAY_MS', env.SHED_EVENT_LOOP_DELAY_MS, 1000),
    shedEventLoopUtilization: fraction('SHED_EVENT_LOOP_UTILIZATION', env.SHED_EVENT_LOOP_UTILIZATION, 0),
    shedDatabaseWaiting: int('SHED_DATABASE_WAITING', env.SHED_DATABASE_WAITING, 100),
    shedMaxInFlight: int('SHED_MAX_IN_FLIGHT', env.SHED_MAX_IN_FLIGHT, 64),
    shedInFlightWaitMs: int('SHED_IN_FLIGHT_WAIT_MS', env.SHED_IN_FLIGHT_WAIT_MS, 200),
    shedSampleIntervalMs: Math.max(10, int('SHED_SAMPLE_INTERVAL_MS', env.SHED_SAMPLE_INTERVAL_MS, 1000)),
    shedRetryAfterSeconds: Math.max(1, int('SHED_RETRY_AFTER_SECONDS', env.SHED_RETRY_AFTER_SECONDS, 5)),
    smtpUrl,
    mailFrom: env.MAIL_FROM ?? 'Ticket Panel <no-reply@ticketpanel.local>',
    qrTtlSeconds: Math.max(1, int('QR_TTL_SECONDS', env.QR_TTL_SECONDS, 30)),
    jwtSecret,
    otpPepper: createHmac('sha256', jwtSecret).update('tp:otp-pepper:v1').digest(),
    passSigningKey: env.PASS_SIGNING_KEY
      ? key32('PASS_SIGNING_KEY', env.PASS_SIGNING_KEY)
      : new Uint8Array(createHmac('sha256', jwtSecret).update('tp:pass-signing:v1').digest()),
    passPreviousPublicKeys: (env.PASS_PREVIOUS_PUBLIC_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k) => key32('PASS_PREVIOUS_PUBLIC_KEYS', k)),
    passCredentialTtlSeconds: Math.min(
      86_400,
      Math.max(60, int('PASS_CREDENTIAL_TTL_SECONDS', env.PASS_CREDENTIAL_TTL_SECONDS, 86_400)),
    ),
    passSkewSteps: Math.min(5, int('PASS_SKEW_STEPS', env.PASS_SKEW_STEPS, 1)),
    accessTokenTtlSeconds: 15 * 60,
    refreshTokenTtlSeconds: 30 * 24 * 3600,
    refreshGraceSeconds: 10,
    otpTtlSeconds: 10 * 60,
    otpResendSeconds: int('OTP_RESEND_SECONDS', env.OTP_RESEND_SECONDS, 60),
    otpMaxAttempts: 5,
    stepUpCodesPerDay: Math.max(1, int('STEP_UP_CODES_PER_DAY', env.STEP_UP_CODES_PER_DAY, 10)),
    stepUpMaxAgeSeconds: Math.min(3600, Math.max(5, int('STEP_UP_MAX_AGE_SECONDS', env.STEP_UP_MAX_AGE_SECONDS, 300))),
    otpRequestsPerIpPerMinute: int('OTP_REQUESTS_PER_IP_PER_MINUTE', env.OTP_REQUESTS_PER_IP_PER_MINUTE, 20),
    otpVerifiesPerIpPerMinute: int('OTP_VERIFIES_PER_IP_PER_MINUTE', env.OTP_VERIFIES_PER_IP_PER_MINUTE, 30),
    redeemPerMinute: int('REDEEM_PER_IP_PER_MINUTE', env.REDEEM_PER_IP_PER_MINUTE, 10),
    resaleBuysPerIpPerMinute: Math.max(1, int('RESALE_BUYS_PER_IP_PER_MINUTE', env.RESALE_BUYS_PER_IP_PER_MINUTE, 10)),
    userSearchesPerMinute: int('USERNAME_SEARCHES_PER_USER_PER_MINUTE', env.USERNAME_SEARCHES_PER_USER_PER_MINUTE, 30),
    giftsPerMinute: Math.max(1, int('GIFTS_PER_USER_PER_MINUTE', env.GIFTS_PER_USER_PER_MINUTE, 10)),
    passkeysPerUserPerMinute: Math.max(1, int('PASSKEYS_PER_USER_PER_MINUTE', env.PASSKEYS_PER_USER_PER_MINUTE, 20)),
    refundRequestsPerMinute: Math.max(
      1,
      int('REFUND_REQUESTS_PER_USER_PER_MINUTE', env.REFUND_REQUESTS_PER_USER_PER_MINUTE, 10),
    ),
    exchangePerUserPerMinute: Math.max(1, int('EXCHANGE_PER_USER_PER_MINUTE', env.EXCHANGE_PER_USER_PER_MINUTE, 10)),
    exchangePerIpPerMinute: Math.max(1, int('EXCHANGE_PER_IP_PER_MINUTE', env.EXCHANGE_PER_IP_PER_MINUTE, 60)),
    scannerKey: overrides.scannerKey ?? keyFrom('SCANNER_KEY', env.SCANNER_KEY, dataDir, 'scanner-key', 18),
    adminKey: overrides.adminKey ?? keyFrom('ADMIN_KEY', env.ADMIN_KEY, dataDir, 'admin-key', 32),
    checkInPerMinute: int('CHECK_IN_PER_IP_PER_MINUTE', env.CHECK_IN_PER_IP_PER_MINUTE, 600),
    accessEventsPerMinute: int('ACCESS_EVENTS_PER_IP_PER_MINUTE', env.ACCESS_EVENTS_PER_IP_PER_MINUTE, 60),
    scannerKeyFailuresPerMinute: int(
      'SCANNER_KEY_FAILURES_PER_IP_PER_MINUTE',
      env.SCANNER_KEY_FAILURES_PER_IP_PER_MINUTE,
      10,
    ),
    keyFailuresPerMinute: int('KEY_FAILURES_PER_IP_PER_MINUTE', env.KEY_FAILURES_PER_IP_PER_MINUTE, 10),
    orgApiPerMinute: int('ORG_API_PER_ORGANISATION_PER_MINUTE', env.ORG_API_PER_ORGANISATION_PER_MINUTE, 600),
    accountExportsPerMinute: int('ACCOUNT_EXPORTS_PER_USER_PER_MINUTE', env.ACCOUNT_EXPORTS_PER_USER_PER_MINUTE, 5),
    walletPerMinute: int('WALLET_PER_IP_PER_MINUTE', env.WALLET_PER_IP_PER_MINUTE, 60),
    walletPassesPerUserPerMinute: int('WALLET_PASSES_PER_USER_PER_MINUTE', env.WALLET_PASSES_PER_USER_PER_MINUTE, 10),
    avatarUploadsPerHolderPerMinute: int(
      'AVATAR_UPLOADS_PER_HOLDER_PER_MINUTE',
      env.AVATAR_UPLOADS_PER_HOLDER_PER_MINUTE,
      10,
    ),
    walletLogPerMinute: int('WALLET_LOG_PER_IP_PER_MINUTE', env.WALLET_LOG_PER_IP_PER_MINUTE, 10),
    passCredentialsPerMinute: int('PASS_CREDENTIALS_PER_USER_PER_MINUTE', env.PASS_CREDENTIALS_PER_USER_PER_MINUTE, 10),
    doorSyncPerMinute: int('DOOR_SYNC_PER_IP_PER_MINUTE', env.DOOR_SYNC_PER_IP_PER_MINUTE, 60),
    avatarDeadlineMs: Math.max(1, int('AVATAR_DEADLINE_SECONDS', env.AVATAR_DEADLINE_SECONDS, 10)) * 1000,
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
    stripeSecretKey,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '',
    stripeApiUrl: env.STRIPE_API_URL || null,
    panelDistDir: resolve(env.PANEL_DIST_DIR ?? join(apiRoot, '../panel/dist')),
    publicDir: join(apiRoot, 'public'),
    logLevel: env.LOG_LEVEL ?? 'info',
    wallet: walletFrom(env, dataDir),
    ...overrides,
  };
}
