/**
 * Shared by the panel's Vite configs (app, embed loader, scanner, demo host) and its Vitest project:
 * `@tp/contract` resolves to its TypeScript source through the package's `source` export condition,
 * so the browser builds and the tests never need the contract built first nor read a stale build.
 * Node (the compiled API) takes the `default` condition: packages/contract/dist.
 */
import { defaultClientConditions } from 'vite';

export const resolveContractSource = { conditions: ['source', ...defaultClientConditions] };
