/**
 * Toasts (react-toastify, top-right, 5 s; spec section 9) loaded on first use: the library and the
 * styles it injects stay off the first screens (issue 9, LOGIN ≤ 120 KiB). `toast.success/error`
 * take react-toastify's arguments; a toast asked for before the container is up waits in
 * react-toastify's queue and shows as soon as `<Toasts>` has mounted it.
 *
 * Feedback that tells the truth (issue 13): a toast may name the `action` it reports, the call that
 * failed (a feature's fetcher, e.g. `verifyCode`, the very function its mutation runs). An error of an
 * action replaces that action's previous error, and is dismissed as soon as the action succeeds: the
 * query client calls {@link clearToastErrors} with the `mutationFn` of every mutation that succeeds
 * (lib/query-client.ts), and a success toast of the same action clears it too.
 */
import { lazy, Suspense, useEffect, useRef, useSyncExternalStore, type ComponentProps } from 'react';
import type * as ToastifyModule from 'react-toastify';
import type * as ToastErrors from './toast-errors';
import type { ToastContent, ToastOptions } from 'react-toastify';

type Toastify = typeof ToastifyModule;

/** The call a toast reports, by identity: a fetcher or query factory of a feature's api/ file. */
export type ToastAction = (...args: never[]) => unknown;
/** react-toastify's options, plus the action the toast reports. */
export type PanelToastOptions = ToastOptions & { action?: ToastAction };

let library: Promise<[Toastify, typeof ToastErrors]> | null = null;
const listeners = new Set<() => void>();

function load() {
  if (!library) {
    library = Promise.all([import('react-toastify'), import('./toast-errors')]);
    listeners.forEach((notify) => notify());
  }
  return library;
}

/** Dismisses the error toast of `action`, if one shows. Loads nothing: without the library there is no toast. */
export function clearToastErrors(action: unknown): void {
  if (!action) return;
  void library?.then(([m, errors]) => {
    const id = errors.takeError(action);
    if (id !== undefined) m.toast.dismiss(id);
  });
}

/** Shows a toast; the library is fetched on the first call. */
export const toast = {
  success: (content: ToastContent, { action, ...options }: PanelToastOptions = {}) => {
    clearToastErrors(action);
    void load().then(([m]) => m.toast.success(content, options));
  },
  error: (content: ToastContent, { action, ...options }: PanelToastOptions = {}) => {
    void load().then(([m, errors]) => {
      if (action) {
        const previous = errors.takeError(action);
        if (previous !== undefined) m.toast.dismiss(previous);
        options.toastId = errors.trackError(action, options.toastId);
      }
      m.toast.error(content, options);
    });
  },
};

/** Texts react-toastify writes itself (issue 29): the region's label, the close button's and the progress bar's. */
export interface ToastTexts {
  /** The notifications region (react-toastify's "Notifications Alt+T"). */
  region: string;
  /** Each toast's close button (its "close", set on each button as it appears). */
  close: string;
  /** The progress bar (its "notification timer", which it offers no option for: set on each bar as it appears). */
  timer: string;
}
type ContainerProps = ComponentProps<Toastify['ToastContainer']> & { texts: ToastTexts };

const Container = lazy(() =>
  load().then(([m]) => ({
    default: function TranslatedContainer({ texts, ...props }: ContainerProps) {
      const box = useRef<HTMLDivElement>(null);
      useEffect(() => {
        const root = box.current;
        if (!root) return;
        const set = (selector: string, text: string) =>
          root.querySelectorAll(selector).forEach((el) => {
            if (el.getAttribute('aria-label') !== text) el.setAttribute('aria-label', text);
          });
        const label = () => {
          set('[role="progressbar"]', texts.timer);
          set('.Toastify__close-button', texts.close);
        };
        label();
        const watch = new MutationObserver(label);
        watch.observe(root, { childList: true, subtree: true });
        return () => watch.disconnect();
      }, [texts.timer, texts.close]);
      return (
        <div ref={box} style={{ display: 'contents' }}>
          <m.ToastContainer {...props} aria-label={texts.region} />
        </div>
      );
    },
  })),
);
const subscribe = (notify: () => void) => {
  listeners.add(notify);
  return () => listeners.delete(notify);
};

/** react-toastify's container in the panel's language, mounted once the first toast was asked for. */
export function Toasts(props: ContainerProps) {
  const wanted = useSyncExternalStore(subscribe, () => library !== null);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Container {...props} />
    </Suspense>
  );
}
