/**
 * Rate limits shared by every instance (issue 11, decision 005): @fastify/rate-limit counts in Redis when
 * REDIS_URL is set, in process memory otherwise. While Redis is unreachable each instance falls back to its
 * own in-memory count (limits hold per instance; the per-e-mail sign-in rules live in PostgreSQL and hold
 * regardless) and returns to Redis as soon as it answers again.
 *
 * Keys never carry request text an attacker can shape: per-IP keys are the client address (Fastify's
 * `req.ip` under TRUST_PROXY) or a hash of it when it is not an IP literal; per-account keys are the
 * verified user id. An IPv6 client is keyed by its network (RATE_LIMIT_IPV6_PREFIX bits, default /64,
 * issue 19 break 7): one subscriber or host gets a whole /64 and could otherwise take a fresh bucket per
 * address. `ipKey` is the one key function of every per-IP limit.
 */
import { sha256 } from './secrets.js';
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import { AppError } from './app-error.js';

/** Prefix of every rate-limit key in Redis. */
const REDIS_PREFIX = 'tp:rl:';

/**
 * A Redis client for the limits: commands fail at once while disconnected (no offline queue) or after
 * 500 ms (command timeout), so a Redis outage never holds a request; ioredis keeps reconnecting. ioredis is loaded
 * here, only when REDIS_URL is set (decision 041: an instance without Redis does not hold it).
 */
export async function connectRedis(url: string, log: (msg: string) => void): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let reported = false;
  redis.on('error', (err: Error) => {
    if (!reported) log(`redis: ${err.message}; rate limits fall back to this instance's memory until it returns`);
    reported = true;
  });
  redis.on('ready', () => {
    if (reported) log('redis: connected again; rate limits are shared again');
    reported = false;
  });
  return redis;
}

/** The store @fastify/rate-limit calls: Redis while it is ready, this process's memory otherwise. */
class FailoverStore implements RateLimitStoreLike {
  constructor(
    private readonly redis: Redis,
    private readonly shared: RateLimitStoreLike,
    private readonly local: RateLimitStoreLike,
  ) {}

  incr(key: string, cb: Parameters<RateLimitStoreLike['incr']>[1], timeWindow: number, max: number): void {
    if (this.redis.status !== 'ready') return this.local.incr(key, cb, timeWindow, max);
    this.shared.incr(
      key,
      (err, res) => (err ? this.local.incr(key, cb, timeWindow, max) : cb(null, res)),
      timeWindow,
      max,
    );
  }

  child(routeOptions: unknown): RateLimitStoreLike {
    return new FailoverStore(this.redis, this.shared.child(routeOptions), this.local.child(routeOptions));
  }
}

/** The `store` option of @fastify/rate-limit for a Redis client (null: in-memory, one process). */
export function rateLimitStore(redis: Redis | null): FastifyRateLimitStoreCtor | undefined {
  if (!redis) return undefined;
  const client = redis;
  class Store extends FailoverStore {
    constructor() {
      super(client, new RedisStore(false, false, client, REDIS_PREFIX), new LocalStore(false, false));
    }
  }
  // The cast: @fastify/rate-limit's own stores (and so this one) call back with `null` where its store type says
  // `undefined`; the plugin reads the result only when there is no error.
  return Store as unknown as FastifyRateLimitStoreCtor | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Bits of an IPv6 address that name one client for per-IP limits (config `rateLimitIpv6Prefix`). */
    rateLimitIpv6Prefix: number;
  }
}

/** Default of RATE_LIMIT_IPV6_PREFIX: a /64 is what one subscriber, host or VM is given. */
export const DEFAULT_IPV6_PREFIX = 64;

/**
 * The rate-limit key of an address: an IPv4 address as is (an IPv4-mapped IPv6 address as its IPv4), an
 * IPv6 address as its first `ipv6Prefix` bits in CIDR form (`2001:db8:1:2::/64`), anything else (a
 * mis-set TRUST_PROXY letting a header through) as a hash, so it can never name buckets freely.
 */
export function addressKey(ip: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  if (!ipaddr.isValid(ip)) return `h:${sha256(ip).toString('base64url')}`;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  const bytes = addr.toByteArray();
  for (let bit = ipv6Prefix; bit < 128; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6Prefix}`;
}

/** Per-IP key of every per-IP limit: `addressKey` of the client address (`req.ip`, TRUST_PROXY applied). */
export function ipKey(req: FastifyRequest): string {
  return addressKey(req.ip, req.server.rateLimitIpv6Prefix ?? DEFAULT_IPV6_PREFIX);
}

/**
 * Names of the rate limits: the `limit` label of `tp_rate_limit_refusals_total` (decision 031; the README's
 * metrics table lists them with the variable that sets each).
 */
export type LimitName =
  | 'sign_in_request'
  | 'sign_in_verify'
  | 'step_up_request'
  | 'step_up_verify'
  | 'passkey_options'
  | 'passkey_verify'
  | 'token_refresh'
  | 'pass_credentials'
  | 'door_events'
  | 'check_in'
  | 'door_sync'
  | 'scanner_key_failures'
  | 'key_failures'
  | 'metrics_token_failures'
  | 'org_api'
  | 'username_search'
  | 'gifts'
  | 'refund_requests'
  | 'account_export'
  | 'resale_redeem'
  | 'resale_buys'
  | 'wallet'
  | 'avatar'
  | 'exchange'
  | 'payout_connects';

/** Counts a request refused by the limit `name` in the app's metrics (`app.metrics`, lib/metrics.ts). */
export function countRefusal(req: FastifyRequest, name: LimitName): void {
  req.server.metrics.rateLimited(name);
}

/**
 * Counts one request against a limiter of `app.createRateLimit` (@fastify/rate-limit); past the limit counts the
 * refusal and throws.
 * @throws AppError `api.too_many_requests` (429, `Retry-After` in seconds)
 */
export async function withinLimit(limiter: Limiter, req: FastifyRequest, name: LimitName): Promise<void> {
  const counted = await limiter(req);
  if (counted.isAllowed || !counted.isExceeded) return;
  countRefusal(req, name);
  throw new AppError('api.too_many_requests', {}, { 'retry-after': String(counted.ttlInSeconds) });
}

/** Locked-out addresses one `guessGuard` remembers at most (the oldest lockout is forgotten first). */
const GUESS_LOCKOUTS_MAX = 10_000;

/**
 * A guard of an operator-chosen secret (ADMIN_KEY, METRICS_TOKEN, SCANNER_KEY and door keys; issue 39 item 11): wrong guesses per client IP
 * count against `limiter` (`withinLimit`); once an address is over it, it is locked out until the window ends, and
 * every request of it is refused with 429 before the secret is compared, the right secret too, so a 429 tells a
 * guesser nothing. Lockouts are kept in this process (at most GUESS_LOCKOUTS_MAX); with a shared limiter store each
 * instance locks an address out at the first wrong guess it sees past the limit. Door keys use it too, with the
 * venue's known door devices let through (access.routes.ts): a venue's devices share one address.
 */
export function guessGuard(limiter: Limiter, name: LimitName, now: () => number = Date.now) {
  const lockedUntil = new Map<string, number>();
  const refuse = (req: FastifyRequest, until: number): never => {
    countRefusal(req, name);
    throw new AppError(
      'api.too_many_requests',
      {},
      { 'retry-after': String(Math.max(1, Math.ceil((until - now()) / 1000))) },
    );
  };
  return {
    /** Whether the request's address is locked out now. */
    locked(req: FastifyRequest): boolean {
      return (lockedUntil.get(ipKey(req)) ?? 0) > now();
    },
    /** Refuses a locked-out address. @throws AppError `api.too_many_requests` (429, `Retry-After`) */
    check(req: FastifyRequest): void {
      const key = ipKey(req);
      const until = lockedUntil.get(key);
      if (until === undefined) return;
      if (until > now()) refuse(req, until);
      lockedUntil.delete(key);
    },
    /**
     * Counts a wrong guess; past the limit locks the address out and refuses.
     * @throws AppError `api.too_many_requests` (429, `Retry-After`)
     */
    async wrong(req: FastifyRequest): Promise<void> {
      const counted = await limiter(req);
      if (counted.isAllowed || !counted.isExceeded) return;
      const until = now() + counted.ttlInSeconds * 1000;
      const key = ipKey(req);
      lockedUntil.delete(key);
      lockedUntil.set(key, until);
      if (lockedUntil.size > GUESS_LOCKOUTS_MAX) lockedUntil.delete(lockedUntil.keys().next().value!);
      refuse(req, until);
    },
  };
}

/** A counter from `app.createRateLimit` (@fastify/rate-limit). */
export type Limiter = (
  req: FastifyRequest,
) => Promise<{ isAllowed: true } | { isAllowed: false; isExceeded: boolean; ttlInSeconds: number }>;

/** Route config: at most `max` requests a minute per client IP; a refusal counts under `name`. */
export function perIpPerMinute(name: LimitName, max: number) {
  return {
    rateLimit: {
      max,
      timeWindow: '1 minute',
      keyGenerator: ipKey,
      onExceeded: (req: FastifyRequest) => countRefusal(req, name),
    },
  };
}

/**
 * Route config: at most `max` requests a minute per signed-in account. Runs after the route's
 * `requireAuth` pre-handler and keys on the verified user id, so neither new tokens of one account nor
 * a reshaped `Authorization` header open a new bucket. A refusal counts under `name`.
 */
export function perUserPerMinute(name: LimitName, max: number) {
  return {
    rateLimit: {
      max,
      timeWindow: '1 minute',
      hook: 'preHandler' as const,
      keyGenerator: (req: FastifyRequest) => `user:${req.auth.userId}`,
      onExceeded: (req: FastifyRequest) => countRefusal(req, name),
    },
  };
}

/**
 * Waits until the Redis client is connected, at most `ms` milliseconds; resolves either way (an instance
 * starts with Redis down and counts in memory until it comes).
 */
export async function redisReady(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    }
    redis.once('ready', done);
  });
}
