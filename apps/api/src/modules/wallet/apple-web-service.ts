/**
 * Apple's pass update web service (issue 22, decision 029; Apple's "Wallet Passes" web service reference): a device
 * registers and unregisters for a pass, asks which of its passes changed, and fetches a pass as it is now. Every
 * call carries `Authorization: ApplePass <the pass's authenticationToken>`, compared in constant time.
 */
import { AppError } from '../../lib/app-error.js';
import { sameSecret } from '../../lib/secrets.js';
import { walletRepository as repo } from './wallet.repository.js';
import type { WalletTickets } from './wallet-tickets.js';
import type { ApplePass } from './apple-pass.js';
import type { WalletDeps } from './wallet-common.js';

/** The web service part: `register`, `unregister`, `updatedSerials`, `latestPass`. */
export function createAppleWebService(
  deps: Pick<WalletDeps, 'database' | 'config' | 'now'>,
  tickets: WalletTickets,
  applePass: Pick<ApplePass, 'pkpass'>,
) {
  const { db } = deps.database;
  const apple = deps.config.apple;
  const { pkpass } = applePass;

  /**
   * The pass of `serialNumber` when `passTypeIdentifier` is this service's and `authorization` is
   * `ApplePass <its authenticationToken>`.
   * @throws AppError `api.unauthorized` (401) otherwise (an unknown serial too, as Apple's reference asks).
   */
  async function authorizedPass(passTypeIdentifier: string, serialNumber: string, authorization: string | undefined) {
    const pass = apple && passTypeIdentifier === apple.passTypeId ? await repo.pass(db, serialNumber) : undefined;
    const token = authorization?.startsWith('ApplePass ') ? authorization.slice('ApplePass '.length) : '';
    if (!pass || !sameSecret(token, pass.authenticationToken)) throw new AppError('api.unauthorized');
    return pass;
  }
  return {
    /**
     * Apple's pass update web service, register: `POST /v1/devices/{deviceLibraryIdentifier}/registrations/
     * {passTypeIdentifier}/{serialNumber}` with `{ pushToken }`. Answers 201 when the device is new for this
     * pass, 200 when it was registered (its push token updated). Capped (decision 029): a pass keeps at most
     * `config.devicesPerPass` devices and a device at most `config.passesPerDevice` passes; a registration past a
     * cap evicts the oldest one (race-safe: the pass row and the device id are locked in one transaction).
     * @throws AppError `api.unauthorized` (401) for a wrong pass type, serial or authentication token.
     */
    async register(
      p: { deviceLibraryIdentifier: string; passTypeIdentifier: string; serialNumber: string },
      authorization: string | undefined,
      pushToken: string,
    ): Promise<200 | 201> {
      const pass = await authorizedPass(p.passTypeIdentifier, p.serialNumber, authorization);
      const caps = { devicesPerPass: deps.config.devicesPerPass, passesPerDevice: deps.config.passesPerDevice };
      const created = await db.transaction((tx) =>
        repo.register(
          tx,
          { deviceLibraryIdentifier: p.deviceLibraryIdentifier, serialNumber: pass.serialNumber, pushToken },
          caps,
        ),
      );
      return created ? 201 : 200;
    },

    /**
     * Unregister: `DELETE /v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}`.
     * @throws AppError `api.unauthorized` (401) as {@link register}.
     */
    async unregister(
      p: { deviceLibraryIdentifier: string; passTypeIdentifier: string; serialNumber: string },
      authorization: string | undefined,
    ): Promise<void> {
      const pass = await authorizedPass(p.passTypeIdentifier, p.serialNumber, authorization);
      await repo.unregister(db, p.deviceLibraryIdentifier, pass.serialNumber);
    },

    /**
     * Changed serials: `GET /v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}
     * ?passesUpdatedSince=<tag>`. The tag is the last change's time in ms since the epoch (UTC), as text.
     * Answers `{ serialNumbers, lastUpdated }`, or null (204) when none changed since the tag.
     */
    async updatedSerials(
      p: { deviceLibraryIdentifier: string; passTypeIdentifier: string },
      passesUpdatedSince: string | undefined,
    ): Promise<{ serialNumbers: string[]; lastUpdated: string } | null> {
      if (!apple || p.passTypeIdentifier !== apple.passTypeId) return null;
      const since =
        passesUpdatedSince && /^\d{1,15}$/.test(passesUpdatedSince) ? new Date(Number(passesUpdatedSince)) : null;
      const rows = await repo.devicePasses(db, p.deviceLibraryIdentifier, since);
      if (!rows.length) return null;
      return {
        serialNumbers: rows.map((r) => r.serialNumber),
        lastUpdated: String(Math.max(...rows.map((r) => r.updatedAt.getTime()))),
      };
    },

    /**
     * Latest pass: `GET /v1/passes/{passTypeIdentifier}/{serialNumber}`: the pass as it is now, signed; voided
     * (`voided: true`, no barcode) once its holder no longer holds the ticket. `lastModified` is its update time.
     * `lastModified` (the Last-Modified to send, whole seconds as HTTP dates go) is the pass's update time, or the
     * second before it while that second lasts, so a change later in the same second never looks like the version
     * the device has. With `ifModifiedSince` (the request's If-Modified-Since, an HTTP date) at or after the update
     * time's second, `pkpass` is null and nothing is signed: the route answers 304 (issue 41, point 10). A ticket
     * that moved before its pass was voided (the update job still due) is always answered in full.
     * `beforeSigning(holderId)` runs once the token is checked and a pass is to be signed (the route's per-holder
     * limit, which throws `api.too_many_requests`).
     * @throws AppError `api.unauthorized` (401) as {@link register}; `api.wallet.not_configured` (404).
     */
    async latestPass(
      p: { passTypeIdentifier: string; serialNumber: string },
      authorization: string | undefined,
      ifModifiedSince?: string,
      beforeSigning?: (holderId: number) => Promise<void>,
    ): Promise<{ pkpass: Buffer | null; lastModified: Date }> {
      const pass = await authorizedPass(p.passTypeIdentifier, p.serialNumber, authorization);
      const row = await repo.passTicket(db, pass.userTicketId, pass.holderId);
      if (!row) throw new AppError('api.unauthorized');
      const live = row.held && !pass.voidedAt;
      const second = Math.floor(pass.updatedAt.getTime() / 1000) * 1000;
      const lastModified = new Date(second < Math.floor(deps.now().getTime() / 1000) * 1000 ? second : second - 1000);
      const since = ifModifiedSince ? Date.parse(ifModifiedSince) : NaN;
      if (second <= since && (live || pass.voidedAt)) return { pkpass: null, lastModified };
      await beforeSigning?.(pass.holderId);
      return { pkpass: await pkpass(row, pass, live ? await tickets.ticketCode(row) : null), lastModified };
    },
  };
}
