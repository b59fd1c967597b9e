/**
 * Preloaded into the `on` server of `bench/request-store-cost.ts` (`node --import`): every request is served
 * inside an AsyncLocalStorage store, as `@fastify/request-context` did (decision 031), so that the store follows
 * every await of the answer. Nothing reads it: what is measured is carrying it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';

const store = new AsyncLocalStorage();
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event !== 'request') return emit.call(this, event, ...args);
  return store.run({ id: args[0].headers['x-request-id'] }, () => emit.call(this, event, ...args));
};
