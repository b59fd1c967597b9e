/**
 * Rate limits shared by every instance (issue 11, decision 005): @fastify/rate-limit counts in Redis when
 * REDIS_URL is set, in process memory otherwise. While Redis is unreachable each instance falls back to its
 * own in-memory count (limits hold per instance; the per-e-mail sign-in rules live in PostgreSQL and hold
 * regardless) and returns to Redis as soon as it answers again.
 *
 * Keys never carry request text an attacker can shape: per-IP keys are the client address (Fastify's
 * `req.ip` under TRUST_PROXY) or a hash of it when it is not an IP literal; per-account keys are the
 * verified user id.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';

/** Prefix of every rate-limit key in Redis. */
const REDIS_PREFIX = 'tp:rl:';

/**
 * A Redis client for the limits: commands fail at once while disconnected (no offline queue) or after
 * 500 ms (command timeout), so a Redis outage never holds a request; ioredis keeps reconnecting.
 */
export function connectRedis(url: string, log: (msg: string) => void): Redis {
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
  return Store as unknown as FastifyRateLimitStoreCtor | undefined;
}

/** Per-IP key: the client address, hashed when it is not an IP literal (a mis-set TRUST_PROXY must not let a header name buckets). */
export function ipKey(req: FastifyRequest): string {
  const ip = req.ip;
  return isIP(ip) ? ip : `h:${createHash('sha256').update(ip).digest('base64url')}`;
}

/** Route config: at most `max` requests a minute per client IP. */
export function perIpPerMinute(max: number) {
  return { rateLimit: { max, timeWindow: '1 minute', keyGenerator: ipKey } };
}

/**
 * Route config: at most `max` requests a minute per signed-in account. Runs after the route's
 * `requireAuth` pre-handler and keys on the verified user id, so neither new tokens of one account nor
 * a reshaped `Authorization` header open a new bucket.
 */
export function perUserPerMinute(max: number) {
  return {
    rateLimit: {
      max,
      timeWindow: '1 minute',
      hook: 'preHandler' as const,
      keyGenerator: (req: FastifyRequest) => `user:${req.auth.userId}`,
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
