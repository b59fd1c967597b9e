/**
 * What the QR screen shows, and why (issue 10 point 2: the screen tells the truth).
 * - `server`: the API's PNG (spec section 2, polled every ttl) while it is fresh (fetched less than a
 *   ttl, plus a short grace, ago); the countdown runs to the next poll.
 * - `device`: no fresh server image (offline, or the poll failed): the code of the current time step,
 *   signed on this device (device-pass.ts) and drawn in the browser; the countdown runs to the next step.
 * - `held`: offline (or the poll failed) with no device pass (no Ed25519 in this browser, or none could be
 *   certified): the last server image stays while the door still accepts it (a ttl after it was fetched;
 *   the door takes the current and the previous step); the countdown runs to that end (issue 20).
 * - `needs_signal`: offline, no device pass and no server image the door would still accept: say so.
 * - `stale`: the device certificate has expired and no fresh server image can be had.
 * - `error`: the device code could not be drawn, or the pass failed while online; `retry` tries again.
 * - `loading`: nothing yet.
 * `offline` is true while the browser says it has no network.
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { qrDataUrl } from './draw-qr';
import { storage } from '../../../lib/storage';
import {
  deviceCodeFor,
  forgetDevicePass,
  loadDevicePass,
  needsRenewal,
  ownPass,
  renewDevicePass,
  stepAt,
  tokenUserId,
} from './device-pass';

export type PassView =
  | { kind: 'server'; src: string; secondsLeft: number }
  | { kind: 'device'; src: string; secondsLeft: number; expiresAtMs: number }
  | { kind: 'held'; src: string; secondsLeft: number }
  | { kind: 'needs_signal' }
  | { kind: 'stale' }
  | { kind: 'error' }
  | { kind: 'loading' };

const subscribeOnline = (l: () => void) => {
  window.addEventListener('online', l);
  window.addEventListener('offline', l);
  return () => {
    window.removeEventListener('online', l);
    window.removeEventListener('offline', l);
  };
};
const useOnline = () =>
  useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );

/** Re-renders every second (the countdown). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, []);
  return now;
}

/**
 * The device pass query: read from IndexedDB (the signed-in account's only), renewed while `online` when half
 * its life is gone. Also started
 * with the first screen's other requests (features/qr/prefetch.ts from main.tsx, issue 30), before the screen renders.
 */
export const devicePassQuery = (online: boolean) =>
  queryOptions({
    queryKey: queryKeys.qr.devicePass,
    // Runs offline too: the stored pass is what matters then.
    networkMode: 'always',
    staleTime: 0,
    retry: false,
    queryFn: async ({ client }) => {
      // Only the signed-in account's: another's is treated as none (and replaced when online).
      const stored = ownPass(await loadDevicePass(), tokenUserId(storage.get('accessToken')));
      if (!online || !needsRenewal(stored, Date.now())) return stored;
      const renew = async () => {
        try {
          return await renewDevicePass();
        } catch (err) {
          // The sign-in is over: the old certificate must not be shown again.
          if (err instanceof ApiError && err.status === 401) await forgetDevicePass();
          else if (stored) return stored;
          throw err;
        }
      };
      // A stored pass still valid is shown at once and renewed behind it: a slow link (lie-fi) never holds
      // the first QR back (issue 30).
      if (stored && stored.expiresAtMs > Date.now() + stored.clockOffsetMs) {
        void renew().then(
          (pass) => client.setQueryData(queryKeys.qr.devicePass, pass),
          () => client.setQueryData(queryKeys.qr.devicePass, null),
        );
        return stored;
      }
      return renew();
    },
  });

/** The device pass on screen: re-read every minute, dropped from the cache when the screen goes. */
function useDevicePass(online: boolean) {
  return useQuery({ ...devicePassQuery(online), gcTime: 0, refetchInterval: 60_000 });
}

/**
 * @param ttl seconds per step (GET /auth/access/qrCodeData), undefined until known.
 * @param server the polled PNG query (`useQrImage`): its base64 data, when it was fetched, whether it failed,
 *   and its refetch (the retry asks for a new image too).
 */
export function usePassView(
  ttl: number | undefined,
  server: { data?: string; dataUpdatedAt: number; isError: boolean; refetch?: () => unknown },
): { view: PassView; offline: boolean; retry: () => void } {
  const online = useOnline();
  const now = useNow();
  const device = useDevicePass(online);
  const pass = device.data ?? null;
  const { refetch } = device;
  const refetchServer = server.refetch;
  const retry = useCallback(() => {
    void refetch();
    void refetchServer?.();
  }, [refetch, refetchServer]);
  const step = pass ? stepAt(pass, now).step : null;
  const [drawn, setDrawn] = useState<{ step: number; certificate: string; src: string } | null>(null);
  const [drawError, setDrawError] = useState(false);

  useEffect(() => {
    if (!pass || step === null) return;
    let live = true;
    deviceCodeFor(pass, step)
      .then(qrDataUrl)
      .then(
        (src) => live && (setDrawn({ step, certificate: pass.certificate, src }), setDrawError(false)),
        () => live && setDrawError(true),
      );
    return () => {
      live = false;
    };
  }, [pass, step]);

  const offline = !online;
  const period = (ttl ?? 30) * 1000;
  const serverAge = now - server.dataUpdatedAt;
  let view: PassView;
  if (server.data && online && serverAge < period + Math.min(2000, period / 2)) {
    view = {
      kind: 'server',
      src: `data:image/png;base64,${server.data}`,
      secondsLeft: secondsUntil(period - serverAge),
    };
  } else if (pass && pass.expiresAtMs <= now + pass.clockOffsetMs) {
    view = { kind: 'stale' };
  } else if (pass && drawn && drawn.certificate === pass.certificate) {
    // Just after a step turns the previous image stays until the new one is drawn (a few ms; the door
    // still accepts the previous step).
    view = {
      kind: 'device',
      src: drawn.src,
      secondsLeft: secondsUntil(stepAt(pass, now).msToNext),
      expiresAtMs: pass.expiresAtMs,
    };
  } else if (!pass && !device.isPending && (offline || server.isError)) {
    // No device pass here: the last server code while the door still takes it, then the plain truth.
    view =
      server.data && serverAge < period
        ? { kind: 'held', src: `data:image/png;base64,${server.data}`, secondsLeft: secondsUntil(period - serverAge) }
        : { kind: 'needs_signal' };
  } else if (drawError || (device.isError && (offline || server.isError))) {
    view = { kind: 'error' };
  } else if (server.data && !offline && !pass) {
    // Online with an image a little older than a step and no device pass (e.g. no Ed25519 here).
    view = { kind: 'server', src: `data:image/png;base64,${server.data}`, secondsLeft: 0 };
  } else view = { kind: 'loading' };
  return { view, offline, retry };
}

const secondsUntil = (ms: number) => Math.max(0, Math.ceil(ms / 1000));
