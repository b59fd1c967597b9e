/** The two stores @fastify/rate-limit ships (CommonJS, untyped deep imports); lib/rate-limit.ts wraps them. */
interface RateLimitStoreLike {
  incr(
    key: string,
    cb: (err: Error | null, res: { current: number; ttl: number } | null) => void,
    timeWindow: number,
    max: number,
  ): void;
  child(routeOptions: unknown): RateLimitStoreLike;
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  const RedisStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    redis: unknown,
    key?: string,
  ) => RateLimitStoreLike;
  export default RedisStore;
}

declare module '@fastify/rate-limit/store/LocalStore.js' {
  const LocalStore: new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => RateLimitStoreLike;
  export default LocalStore;
}
