/** The contract shared by API and panel: payload schemas, message keys, constants. */
export * from './messages.js';
export * from './constants.js';
export * from './profile.js';
export * as auth from './auth.js';
export * as access from './access.js';
export * as tickets from './tickets.js';
export * as gift from './gift.js';
export * as resell from './resell.js';
export * as swap from './swap.js';
export { CALLS } from './calls.js';
export type { User, ErrorBody } from './auth.js';
export type { MyTicket, Benefit } from './tickets.js';
export type { QrCodeData } from './access.js';
export * as config from './config.js';
export type { PanelConfig } from './config.js';
export * from './embed.js';
export * as account from './account.js';
export type { AccountExport, Earning } from './account.js';
